import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entryText, type ToolResultBlock } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { activeLeaf, pathTo } from '../journal/tree.ts';
import { importText } from './run.ts';

/** A Kimi Code session folder in the shape kimi-code 0.3x writes (see public/samples/NOTICE.md). */
const DIR = '../../../public/samples/kimi-code/session_4e1b7c2a-9d3f-4a86-b5e0-7c21f8d3a94b';
const MAIN = readFileSync(new URL(`${DIR}/agents/main/wire.jsonl`, import.meta.url), 'utf8');
const SUB = readFileSync(new URL(`${DIR}/agents/agent-0/wire.jsonl`, import.meta.url), 'utf8');

function jsonl(...lines: unknown[]): string {
  return `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`;
}
const META = { type: 'metadata', protocol_version: '1.5', created_at: 1790321400000 };
const loop = (event: Record<string, unknown>) => ({ type: 'context.append_loop_event', agentId: 'main', event, time: 1790321400100 });
const message = (body: Record<string, unknown>) => ({ type: 'context.append_message', agentId: 'main', message: { toolCalls: [], ...body }, time: 1790321400050 });
const prompt = (text: string) => message({ role: 'user', content: [{ type: 'text', text }], origin: { kind: 'user' } });

describe('a Kimi Code wire.jsonl', () => {
  it("reads the sample's main agent as counted by hand: one response per step with its usage and model, results paired, the compaction with its summary, the undone turn as a branch", () => {
    const result = importText(MAIN, { fileName: 'wire.jsonl' });
    expect(result.format).toBe('kimi-code');
    expect(result.meta).toEqual({ version: 'wire 1.5', createdAt: 1790321400000, model: 'kimi-for-coding', subagentCalls: { 'agent-0': 'Agent_4' } });
    expect(result.entries.map((entry) => `${entry.role}:${entry.line}${entry.lineEnd ? `-${entry.lineEnd}` : ''}`)).toEqual([
      'system:3', 'user:7', 'user:8', 'assistant:11-15', 'tool:16', 'tool:17', 'assistant:22-23', 'tool:25', 'assistant:30-31', 'tool:33',
      'assistant:38-39', 'tool:40', 'assistant:45', 'tool:46', 'assistant:51-53', 'user:57', 'assistant:60-62', 'user:67', 'assistant:70-72',
      'tool:73', 'tool:74', 'assistant:79', 'tool:80', 'tool:82', 'assistant:87-88', 'summary:93', 'user:97', 'assistant:100', 'tool:102',
      'user:105', 'assistant:108-109', 'summary:112', 'user:114', 'assistant:117', 'tool:118', 'assistant:123-124',
    ]);
    // metadata, runtime binding, active tools, permission mode, 5 turn.prompt, 15 llm.request, 14 step.begin,
    // 15 usage.record, 2 approvals, 5 turn.ended, the cancel, the undo, compaction begin and complete, the steer.
    expect(result.ignoredLines).toBe(65);
    expect(result.issues).toEqual([]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 12, toolResults: 12, orphanToolCalls: 0, orphanToolResults: 0 });
    const responses = result.entries.filter((entry) => entry.role === 'assistant');
    expect(responses.map((entry) => entry.usage?.input)).toEqual([8020, 9420, 9618, 10046, 10752, 10985, 11460, 11636, 12243, 12589, 2046, 2211, 1893, 2004]);
    expect(responses.map((entry) => entry.usage?.output)).toEqual([168, 61, 236, 97, 38, 54, 14, 171, 142, 43, 27, 39, 31, 44]);
    expect(responses[0]!.usage).toEqual({ input: 8020, output: 168, cacheRead: 4608 });
    expect(responses.every((entry) => entry.model === 'kimi-for-coding')).toBe(true);
    // Two streamed pieces of one thought are one thinking block, then the text and both calls.
    expect(responses[0]!.blocks.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_call', 'tool_call']);
    expect(responses[0]!.blocks[0]).toEqual({ type: 'thinking', text: 'The failure is on a compound duration. I should read the parser and its test before guessing.' });
    expect(responses[0]!.blocks[2]).toMatchObject({ callId: 'Read_0', name: 'Read', input: { path: 'src/duration.ts' } });
    expect(entryText(responses[5]!)).toBe('Fixed: parseDuration now sums each number-unit pair, so "1h30m" gives 5,400,000 ms. Both tests pass, and the two callers (src/cli.ts, src/schedule.ts) need no change.');
    expect((result.entries[7]!.blocks[0] as ToolResultBlock).isError).toBe(true);
    expect(result.entries.filter((entry) => entry.role === 'tool' && (entry.blocks[0] as ToolResultBlock).isError)).toHaveLength(1);
    expect(result.entries[2]!.flags).toEqual({ injected: true });
    // The cancelled turn's step is aborted; the undo hangs the next prompt under the answer before it.
    expect(result.entries[16]!.flags).toEqual({ aborted: true });
    expect(result.entries[17]!.parentId).toBe(result.entries[14]!.id);
    const path = pathTo(result.entries, activeLeaf(result.entries)!.id);
    expect(path).not.toContain(15);
    expect(path).not.toContain(16);
    expect(path).toHaveLength(34);
    expect(result.entries[25]).toMatchObject({ kind: 'compaction', marker: { source: 'kimi-code.compaction', trigger: 'manual', tokensBefore: 12632 } });
    expect(entryText(result.entries[25]!)).toMatch(/^The user is fixing parseDuration in \/home\/dev\/timekit.*All tests in src\/duration\.test\.ts pass\.$/s);
    expect(result.entries[31]).toMatchObject({ kind: 'compaction', marker: { source: 'kimi-code.clear', trigger: 'clear' }, blocks: [{ type: 'text', text: '' }] });
    expect(entryText(result.entries[29]!)).toBe('Only the unit tests, skip e2e.');
  });

  it("reads the sample's subagent: its own system prompt from profile.bind, its three steps with usage, linked as a subagent by its agent id", () => {
    const result = importText(SUB, { fileName: 'wire.jsonl' });
    expect(result.format).toBe('kimi-code');
    expect(result.meta).toEqual({ version: 'wire 1.5', model: 'kimi-for-coding', title: 'explore subagent', subagent: { agentId: 'agent-0', agentType: 'explore' } });
    expect(result.entries.map((entry) => `${entry.role}:${entry.line}`)).toEqual(['system:2', 'user:4', 'assistant:7', 'tool:8', 'assistant:13', 'tool:14', 'assistant:19']);
    // metadata, turn.prompt, 3 llm.request, 3 step.begin, 3 usage.record, turn.ended.
    expect(result.ignoredLines).toBe(12);
    expect(result.entries.filter((entry) => entry.usage).map((entry) => entry.usage)).toEqual([{ input: 1710, output: 36 }, { input: 1938, output: 29, cacheRead: 1536 }, { input: 2025, output: 71, cacheRead: 1792 }]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 2, toolResults: 2, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('reads whole messages of both tool-call spellings, images, a result note, a sealed thought, an errored step and a step that wrote nothing', () => {
    const result = importText(jsonl(
      META,
      message({ role: 'assistant', content: [{ type: 'think', think: 'plan', encrypted: 'sig' }, { type: 'text', text: 'Reading.' }], toolCalls: [{ type: 'function', id: 'a', name: 'Read', arguments: '{"path":"x"}' }, { type: 'function', id: 'b', function: { name: 'Bash', arguments: null } }] }),
      message({ role: 'tool', toolCallId: 'a', content: [{ type: 'text', text: 'x body' }, { type: 'image_url', imageUrl: { url: 'data:image/png;base64,AAAA' } }] }),
      message({ role: 'tool', toolCallId: 'b', content: 'done', isError: true, note: 'output truncated' }),
      loop({ type: 'step.begin', uuid: 's1' }),
      loop({ type: 'content.part', stepUuid: 's1', part: { type: 'video_url', videoUrl: { url: 'https://v' } } }),
      loop({ type: 'step.end', uuid: 's1', finishReason: 'error', usage: { inputOther: 5, output: 1, inputCacheRead: 0, inputCacheCreation: 3 } }),
      loop({ type: 'step.begin', uuid: 's2' }),
      loop({ type: 'step.end', uuid: 's2', finishReason: 'interrupted', usage: { inputOther: 7, output: 0, inputCacheRead: 0, inputCacheCreation: 0 } }),
      loop({ type: 'step.begin', uuid: 's3' }),
      loop({ type: 'step.end', uuid: 's3', finishReason: 'end_turn' }),
    ));
    const [assistant, first, second, errored, empty] = result.entries;
    expect(assistant!.blocks).toEqual([
      { type: 'thinking', text: 'plan', signature: 'sig' }, { type: 'text', text: 'Reading.' },
      { type: 'tool_call', callId: 'a', name: 'Read', input: { path: 'x' }, resultEntryId: 'l3' }, { type: 'tool_call', callId: 'b', name: 'Bash', input: {}, resultEntryId: 'l4' },
    ]);
    expect((first!.blocks[0] as ToolResultBlock).content).toEqual([{ type: 'text', text: 'x body' }, { type: 'image', mediaType: 'image/png', bytes: 3, source: 'base64' }]);
    expect(second!.blocks[0]).toMatchObject({ isError: true, content: [{ type: 'text', text: 'done\noutput truncated' }] });
    expect(errored).toMatchObject({ blocks: [{ type: 'text', text: '[video]' }], usage: { input: 8, output: 1, cacheWrite: 3 }, flags: { aborted: true, error: true } });
    expect(empty).toMatchObject({ role: 'assistant', blocks: [], usage: { input: 7, output: 0 }, flags: { aborted: true } });
    expect(result.entries).toHaveLength(5);
    expect(result.issues).toEqual([]);
  });

  it('undoes as many prompts as it can count since the last compaction, and nothing when there are fewer', () => {
    const result = importText(jsonl(
      META, prompt('one'), prompt('two'), prompt('three'),
      { type: 'context.undo', agentId: 'main', count: 2, time: 1 },
      prompt('four'),
      { type: 'context.apply_compaction', agentId: 'main', summary: { role: 'user', content: [{ type: 'text', text: 'old summary' }], toolCalls: [] }, count: 2, time: 2 },
      prompt('five'),
      { type: 'context.undo', agentId: 'main', count: 2, time: 3 },
      prompt('six'),
    ));
    const byText = (text: string) => result.entries.find((entry) => entryText(entry) === text)!;
    expect(byText('four').parentId).toBe(byText('one').id);
    expect(entryText(result.entries[4]!)).toBe('old summary');
    expect(byText('six').parentId).toBe(byText('five').id);
    expect(result.issues).toEqual([]);
  });

  it('flags the open step aborted at a turn.cancel, and reads parts written without their step', () => {
    const result = importText(jsonl(
      META, prompt('go'),
      loop({ type: 'content.part', part: { type: 'text', text: 'Sta' } }),
      loop({ type: 'content.part', part: { type: 'text', text: 'rting' } }),
      { type: 'turn.cancel', agentId: 'main', time: 1 },
    ));
    expect(result.entries[1]).toMatchObject({ role: 'assistant', blocks: [{ type: 'text', text: 'Starting' }], flags: { aborted: true } });
  });

  it('reports every record it cannot read by line and reason, and keeps the rest', () => {
    const result = importText(jsonl(
      META, prompt('hi'),
      { agentId: 'main', time: 1 },
      { type: 'context.append_message', message: 'hello' },
      { type: 'context.append_message', message: { role: 'developer', content: [] } },
      { type: 'context.append_loop_event', event: [] },
      loop({ type: 'content.part', stepUuid: 's', part: 'text' }),
      loop({ type: 'tool.call', stepUuid: 's', name: 'Read' }),
      loop({ type: 'tool.result', toolCallId: 'c' }),
      loop({ type: 'step.pause', uuid: 's' }),
      { type: 'context.apply_compaction', compactedCount: 3 },
      { type: 'context.undo', count: 0 },
      { type: 'hologram.begin', beam: 1 },
    ));
    expect(result.entries).toHaveLength(1);
    expect(result.issues.map(({ line, kind, message }) => `${line} ${kind} ${message}`)).toEqual([
      '3 malformed expected a Kimi Code wire record {"type", ..., "time"}, got "type" nothing (the field is missing) (keys agentId, time); skipped',
      '4 malformed a context.append_message needs a "message" object with a "role", got a string "hello"; skipped',
      '5 unsupported message role "developer" is not one Foldlab knows (user, assistant, tool, system); skipped',
      '6 malformed a context.append_loop_event needs an "event" object with a "type", got an array; skipped',
      '7 malformed a content.part needs its "part" object, got a string "text"; skipped',
      '8 malformed a tool.call needs its "toolCallId" (a string), got nothing (the field is missing); skipped',
      '9 malformed a tool.result needs its "toolCallId" and a "result" object, got "result" nothing (the field is missing); skipped',
      '10 unsupported loop event type "step.pause" is not one Foldlab knows (step.begin, content.part, tool.call, tool.result, step.end); skipped',
      '11 malformed a context.apply_compaction needs its "summary" (a string), got nothing (the field is missing); skipped',
      '12 malformed a context.undo needs a "count" of turns (a positive integer), got number 0; skipped',
      '13 unsupported wire record type "hologram.begin" is not one Foldlab knows (keys: beam); skipped',
    ]);
  });
});

describe('telling a Kimi Code wire from a Kimi CLI wire', () => {
  it('reads a metadata line with created_at, or a wire without its metadata line, as Kimi Code', () => {
    expect(importText(jsonl(META, prompt('hi'))).format).toBe('kimi-code');
    expect(importText(jsonl(prompt('hi'), loop({ type: 'content.part', part: { type: 'text', text: 'yes' } }))).format).toBe('kimi-code');
  });

  it('lets the line after a bare metadata line decide', () => {
    const bare = { type: 'metadata', protocol_version: '1.5' };
    expect(importText(jsonl(bare, prompt('hi'))).format).toBe('kimi-code');
    expect(importText(jsonl(bare, '', { type: 'usage.record', model: 'k', usage: {} }, prompt('hi'))).format).toBe('kimi-code');
    const cli = importText(jsonl({ type: 'metadata', protocol_version: '1.9' }, { timestamp: 1, message: { type: 'TurnBegin', payload: { user_input: 'hi' } } }));
    expect(cli.format).toBe('kimi');
    expect(cli.lines).toBe(2);
  });
});
