import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryText, type Entry, type ToolCallBlock, type ToolResultBlock } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { branchLeaves, listBranches, pathTo } from '../journal/tree.ts';
import { ImportSession, importText } from './run.ts';

const FIXTURE = readFileSync(new URL('../../../public/samples/codex/schema-coverage.jsonl', import.meta.url), 'utf8');
/** The raw lines, read independently of the importer (only the fields the tests look at). */
interface RawLine {
  type?: string;
  payload: { type?: string; role?: string; message?: string; info?: unknown };
}
const RAW = FIXTURE.split('\n').filter((line) => line.trim().length > 0).map((line) => JSON.parse(line) as RawLine);

/** JSONL text from objects (one per line). */
function jsonl(...lines: unknown[]): string {
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

const TS = '2026-01-01T00:00:00.000Z';
const meta = (extra: Record<string, unknown> = {}) => ({ timestamp: TS, type: 'session_meta', payload: { id: 'sess-1', cwd: '/repo', cli_version: '0.146.0', ...extra } });
const item = (payload: Record<string, unknown>) => ({ timestamp: TS, type: 'response_item', payload });
const event = (payload: Record<string, unknown>) => ({ timestamp: TS, type: 'event_msg', payload });
const user = (text: string) => item({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const assistant = (text: string) => item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });

function toolCalls(entries: readonly Entry[]): ToolCallBlock[] {
  return entries.flatMap((entry) => entry.blocks.filter((block): block is ToolCallBlock => block.type === 'tool_call'));
}
function toolResults(entries: readonly Entry[]): ToolResultBlock[] {
  return entries.flatMap((entry) => entry.blocks.filter((block): block is ToolResultBlock => block.type === 'tool_result'));
}
function countBy(entries: readonly Entry[], key: (entry: Entry) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of entries) counts[key(entry)] = (counts[key(entry)] ?? 0) + 1;
  return counts;
}

describe('codex importer: schema-coverage fixture (CLI 0.146)', () => {
  const result = importText(FIXTURE, { fileName: 'schema-coverage.jsonl' });
  const items = RAW.filter((line) => line.type === 'response_item').map((line) => line.payload);

  it('is detected as codex and reads every line without issues', () => {
    expect(result.format).toBe('codex');
    expect(result.issues).toEqual([]);
    expect(result.lines).toBe(RAW.length);
    expect(result.meta).toMatchObject({ sessionId: '019fc8be-3658-7ca3-9e29-000000000000', cwd: '/tmp/repo', version: '0.146.0', model: 'gpt-5.6-luna', contextWindow: 258400 });
  });

  it("takes the branch and the start from the first session_meta (git.branch, timestamp); a later session_meta changes neither", () => {
    expect(result.meta).toMatchObject({ gitBranch: 'main', createdAt: Date.UTC(2026, 7, 3, 10, 48, 56) });
  });

  it('keeps one compaction marker per `compacted` line and does not re-import replacement_history', () => {
    const compacted = RAW.filter((line) => line.type === 'compacted');
    expect(compacted).toHaveLength(6);
    const markers = result.entries.filter((entry) => entry.kind === 'compaction');
    expect(markers).toHaveLength(compacted.length);
    expect(markers.map((entry) => entry.marker?.source)).toEqual(Array(6).fill('codex.compacted'));
    expect(markers.map((entry) => entry.role)).toEqual(Array(6).fill('summary'));
    expect(markers.map((entry) => entryText(entry))).toEqual(compacted.map((line) => line.payload.message));
    // No entry comes from a compacted line other than its marker.
    const compactedLines = new Set(markers.map((entry) => entry.line));
    expect(result.entries.filter((entry) => compactedLines.has(entry.line) && entry.kind !== 'compaction')).toEqual([]);
  });

  it('turns no event_msg into text: every agent_message / user_message text appears in at most one entry', () => {
    const mirrored = RAW.filter((line) => line.type === 'event_msg' && (line.payload.type === 'agent_message' || line.payload.type === 'user_message'))
      .map((line) => line.payload.message as string)
      .filter((text) => !text.includes('trimmed for fixture')); // placeholders shared by many lines
    expect(mirrored).toEqual(['List the files', 'Found 2 files.']);
    for (const text of mirrored) {
      const holders = result.entries.filter((entry) => entryText(entry).includes(text));
      expect(holders.length, text).toBeLessThanOrEqual(1);
    }
    expect(result.entries.filter((entry) => entryText(entry) === 'Found 2 files.')).toHaveLength(1);
    // Only `error` events become entries.
    const fromEvents = result.entries.filter((entry) => entry.sourceType.startsWith('event_msg/'));
    expect(fromEvents.map((entry) => entry.sourceType)).toEqual(['event_msg/error']);
    expect(fromEvents[0]).toMatchObject({ kind: 'event', role: 'system', flags: { error: true } });
  });

  it('counts entries by role and kind', () => {
    expect(countBy(result.entries, (entry) => `${entry.kind}/${entry.role}`)).toEqual({
      'message/system': 2, // base_instructions of the first session_meta + one developer message
      'message/user': 3, // one user message + two inter-agent agent_message items
      'message/assistant': 9, // consecutive reasoning / message / call items merged per response
      'message/tool': 6,
      'compaction/summary': 6,
      'event/system': 1,
    });
    const outputs = items.filter((payload) => String(payload.type).endsWith('_output'));
    expect(result.entries.filter((entry) => entry.role === 'tool')).toHaveLength(outputs.length);
    const developers = items.filter((payload) => payload.type === 'message' && payload.role === 'developer');
    expect(result.entries.filter((entry) => entry.role === 'system' && entry.flags?.injected)).toHaveLength(developers.length);
    expect(result.entries.filter((entry) => entry.sourceType === 'response_item/ghost_snapshot')).toEqual([]);
  });

  it('merges the items of one model response into one assistant entry', () => {
    const merged = result.entries.find((entry) => entry.line === 7);
    expect(merged).toMatchObject({ role: 'assistant', lineEnd: 10, sourceType: 'response_item/reasoning+custom_tool_call+function_call', model: 'gpt-5.6-luna' });
    expect(merged?.blocks.map((block) => block.type)).toEqual(['thinking', 'tool_call', 'tool_call']);
  });

  it('links tool calls by call_id; the server-side web_search_call has no output and is a complete (hosted) call, not an orphan', () => {
    const calls = items.filter((payload) => /(_call)$/.test(String(payload.type)) && payload.type !== 'image_generation_call');
    expect(toolCalls(result.entries)).toHaveLength(calls.length);
    expect(toolResults(result.entries)).toHaveLength(items.filter((payload) => String(payload.type).endsWith('_output')).length);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 7, toolResults: 6, orphanToolCalls: 0, orphanToolResults: 0 });
    const unlinked = toolCalls(result.entries).filter((block) => !block.resultEntryId);
    expect(unlinked).toEqual([expect.objectContaining({ name: 'web_search', callId: 'ws-1', hosted: true })]);
  });

  it('marks a server-side tool_search_call hosted; a local one is linked to its tool_search_output and an unanswered function_call stays an orphan', () => {
    const text = jsonl(
      meta(),
      item({ type: 'tool_search_call', call_id: 'ts-server', execution: 'server', arguments: { query: 'q' } }),
      item({ type: 'tool_search_call', call_id: 'ts-local', execution: 'local', arguments: { query: 'q' } }),
      item({ type: 'tool_search_output', call_id: 'ts-local', execution: 'local', tools: [] }),
      item({ type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'q' } }),
      item({ type: 'function_call', name: 'shell', arguments: '{}', call_id: 'fc-open' }),
    );
    const imported = importText(text);
    const calls = toolCalls(imported.entries);
    expect(calls.map((block) => [block.callId, block.hosted ?? false, block.resultEntryId !== undefined])).toEqual([
      ['ts-server', true, false],
      ['ts-local', false, true],
      [expect.any(String), true, false],
      ['fc-open', false, false],
    ]);
    expect(linkReport(imported.entries)).toMatchObject({ toolCalls: 4, orphanToolCalls: 1 });
  });

  it('attaches token_count usage to the preceding assistant entry', () => {
    const withUsage = result.entries.filter((entry) => entry.usage);
    const counted = RAW.filter((line) => line.type === 'event_msg' && line.payload.type === 'token_count' && line.payload.info);
    expect(withUsage.length).toBeGreaterThan(0);
    expect(withUsage.length).toBeLessThanOrEqual(counted.length);
    expect(withUsage.every((entry) => entry.role === 'assistant')).toBe(true);
    expect(withUsage[0]?.usage).toEqual({ input: 16341, output: 81, cacheRead: 3584, cacheWrite: 0, reasoning: 63 });
    expect(withUsage[0]!.line).toBeLessThan(22);
  });

  it('flags the turn assistant entry on turn_aborted and injected inter-agent text', () => {
    const aborted = result.entries.filter((entry) => entry.flags?.aborted);
    expect(aborted).toHaveLength(1);
    expect(aborted[0]!.role).toBe('assistant');
    expect(aborted[0]!.line).toBeLessThan(20);
    expect(result.entries.filter((entry) => entry.sourceType === 'response_item/agent_message').every((entry) => entry.flags?.injected)).toBe(true);
  });

  it('is a single linear branch', () => {
    expect(branchLeaves(result.entries)).toHaveLength(1);
  });

  it('gives the same result however the text is chunked', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: FIXTURE.length }), { maxLength: 24 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const session = new ImportSession();
        let start = 0;
        for (const point of [...points, FIXTURE.length]) {
          session.push(FIXTURE.slice(start, point));
          start = point;
        }
        expect(session.finish()).toEqual(importText(FIXTURE));
      }),
      { numRuns: 40 },
    );
  });
});

describe('codex importer: inline cases', () => {
  it('reads the legacy layout (header line, bare items, record_type state skipped)', () => {
    const text = jsonl(
      { id: 'legacy-1', timestamp: TS, instructions: '# path: AGENTS.md\r\nBe brief.', git: { branch: 'main' } },
      { record_type: 'state' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<user_instructions>\nBe brief.\n</user_instructions>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] },
      { record_type: 'state' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: '**Listing**' }], content: null, encrypted_content: 'gAAAA' },
      { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'call_1' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"output":"a.txt\\n","metadata":{"exit_code":0,"duration_seconds":0.1}}' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'One file.' }] },
    );
    const result = importText(text);
    expect(result.format).toBe('codex');
    expect(result.meta.sessionId).toBe('legacy-1');
    expect(result.ignoredLines).toBe(2);
    expect(result.entries.map((entry) => [entry.role, entry.sourceType, entry.flags?.injected ?? false])).toEqual([
      ['system', 'session_meta', false],
      ['user', 'response_item/message', true],
      ['user', 'response_item/message', false],
      ['assistant', 'response_item/reasoning+function_call', false],
      ['tool', 'response_item/function_call_output', false],
      ['assistant', 'response_item/message', false],
    ]);
    expect(entryText(result.entries[0]!)).toBe('# path: AGENTS.md\r\nBe brief.');
    const [thinking, call] = result.entries[3]!.blocks;
    expect(thinking).toEqual({ type: 'thinking', text: '**Listing**', signature: 'gAAAA' });
    expect(call).toMatchObject({ type: 'tool_call', name: 'shell', callId: 'call_1', input: { command: ['ls'] }, resultEntryId: result.entries[4]!.id });
    expect(result.entries[4]!.blocks[0]).toMatchObject({ content: [{ type: 'text', text: 'a.txt\n' }], isError: false });
    expect(result.entries.every((entry) => entry.timestamp === undefined || entry.sourceType === 'session_meta')).toBe(true);
  });

  it('makes thread_rolled_back an abandoned branch', () => {
    const text = jsonl(
      meta(),
      user('<environment_context>cwd /repo</environment_context>'),
      user('first question'),
      assistant('first answer'),
      user('second question'),
      item({ type: 'reasoning', summary: [], encrypted_content: 'enc' }),
      assistant('second answer'),
      event({ type: 'thread_rolled_back', num_turns: 1 }),
      user('second question, rephrased'),
      assistant('better answer'),
    );
    const result = importText(text);
    const byText = (wanted: string) => result.entries.find((entry) => entryText(entry) === wanted)!;
    expect(byText('second question, rephrased').parentId).toBe(byText('first answer').id);
    expect(byText('second question').parentId).toBe(byText('first answer').id);
    const leaves = branchLeaves(result.entries);
    expect(leaves.map((entry) => entryText(entry))).toEqual(['second answer', 'better answer']);
    const branches = listBranches(result.entries);
    expect(branches).toHaveLength(2);
    expect(branches[0]).toMatchObject({ active: true, label: 'second question, rephrased' });
    expect(branches[1]).toMatchObject({ active: false, forkId: byText('first answer').id });
    // The live path skips the rolled-back turn.
    const live = pathTo(result.entries, leaves[1]!.id).map((index) => entryText(result.entries[index]!));
    expect(live).not.toContain('second question');
    // The encrypted-only reasoning is redacted and merged into the abandoned response.
    expect(byText('second answer').blocks[0]).toEqual({ type: 'thinking', text: '', signature: 'enc', redacted: true });
  });

  it('rolls back several turns, injected context messages not counting as turns', () => {
    const text = jsonl(meta(), user('q1'), assistant('a1'), user('q2'), user('<environment_context>x</environment_context>'), assistant('a2'), user('q3'), assistant('a3'),
      event({ type: 'thread_rolled_back', num_turns: 2 }), user('q2b'), assistant('a2b'));
    const result = importText(text);
    const byText = (wanted: string) => result.entries.find((entry) => entryText(entry) === wanted)!;
    expect(byText('q2b').parentId).toBe(byText('a1').id);
    expect(branchLeaves(result.entries).map(entryText)).toEqual(['a3', 'a2b']);
  });

  it('unwraps a JSON-in-string function_call_output and marks a non-zero exit code as an error', () => {
    const text = jsonl(
      meta(),
      user('run it'),
      item({ type: 'function_call', name: 'shell', arguments: '{"command":["false"]', call_id: 'c1' }),
      item({ type: 'function_call', name: 'shell', arguments: '{"command":["true"]}', call_id: 'c2' }),
      item({ type: 'function_call_output', call_id: 'c1', output: JSON.stringify({ output: 'boom\n', metadata: { exit_code: 1, duration_seconds: 0.2 } }) }),
      item({ type: 'function_call_output', call_id: 'c2', output: JSON.stringify({ output: 'ok\n', metadata: { exit_code: 0 } }) }),
      item({ type: 'function_call_output', call_id: 'c3', output: '{"not":"wrapped"}' }),
      item({ type: 'function_call_output', call_id: 'c4', output: [{ type: 'input_text', text: 'see image' }, { type: 'input_image', image_url: 'data:image/png;base64,AAAA' }] }),
    );
    const result = importText(text);
    const results = toolResults(result.entries);
    expect(results.map((block) => [block.callId, block.isError, block.content])).toEqual([
      ['c1', true, [{ type: 'text', text: 'boom\n' }]],
      ['c2', false, [{ type: 'text', text: 'ok\n' }]],
      ['c3', false, [{ type: 'text', text: '{"not":"wrapped"}' }]],
      ['c4', false, [{ type: 'text', text: 'see image' }, { type: 'image', mediaType: 'image/png', bytes: 3, source: 'base64' }]],
    ]);
    // Broken JSON arguments are kept as raw text.
    expect(toolCalls(result.entries).map((block) => block.input)).toEqual(['{"command":["false"]', { command: ['true'] }]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 2, toolResults: 4, orphanToolCalls: 0, orphanToolResults: 2 });
  });

  it('keeps a custom_tool_call apply_patch body as raw text', () => {
    const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\n*** End Patch\n';
    const text = jsonl(
      meta(),
      user('fix a.txt'),
      item({ type: 'custom_tool_call', status: 'completed', call_id: 'call_p', name: 'apply_patch', input: patch }),
      item({ type: 'custom_tool_call_output', call_id: 'call_p', output: JSON.stringify({ output: 'Success. Updated the following files:\nM a.txt\n', metadata: { exit_code: 0 } }) }),
    );
    const result = importText(text);
    const call = toolCalls(result.entries)[0]!;
    expect(call).toMatchObject({ name: 'apply_patch', callId: 'call_p', input: patch });
    expect(entryText(result.entries.find((entry) => entry.role === 'assistant')!)).toBe(`apply_patch(${patch})`);
    const output = toolResults(result.entries)[0]!;
    expect(output).toMatchObject({ callId: 'call_p', isError: false, content: [{ type: 'text', text: 'Success. Updated the following files:\nM a.txt\n' }] });
    expect(call.resultEntryId).toBe(result.entries.find((entry) => entry.role === 'tool')!.id);
  });

  it('reads token_count (null info ignored), turn_context model, errors, compacted, and ignores mirrored events', () => {
    const text = jsonl(
      meta({ base_instructions: { text: 'You are Codex.' } }),
      { timestamp: TS, type: 'turn_context', payload: { model: 'gpt-5.3-codex' } },
      event({ type: 'user_message', message: 'hello' }),
      user('<environment_context>cwd</environment_context>'),
      user('hello'),
      item({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking about it' }], content: [{ type: 'reasoning_text', text: 'raw' }] }),
      event({ type: 'agent_reasoning', text: 'thinking about it' }),
      assistant('hi there'),
      event({ type: 'agent_message', message: 'hi there' }),
      event({ type: 'token_count', info: null }),
      event({ type: 'token_count', info: { last_token_usage: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 10, reasoning_output_tokens: 4 }, model_context_window: 272000 } }),
      event({ type: 'token_count', info: { last_token_usage: { input_tokens: 999, output_tokens: 9 } } }),
      event({ type: 'error', message: 'stream disconnected' }),
      { timestamp: TS, type: 'compacted', payload: { message: '', replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] }, { type: 'compaction', encrypted_content: 'x' }] } },
      event({ type: 'context_compacted' }),
      item({ type: 'ghost_snapshot', ghost_commit: {} }),
      { timestamp: TS, type: 'future_kind', payload: {} },
      meta({ id: 'resumed', base_instructions: { text: 'again' } }),
    );
    const result = importText(text);
    expect(result.meta).toMatchObject({ sessionId: 'sess-1', model: 'gpt-5.3-codex', contextWindow: 272000 });
    expect(result.entries.map((entry) => [entry.kind, entry.role, entryText(entry)])).toEqual([
      ['message', 'system', 'You are Codex.'],
      ['message', 'user', '<environment_context>cwd</environment_context>'],
      ['message', 'user', 'hello'],
      ['message', 'assistant', 'thinking about it\n\nraw\nhi there'],
      ['event', 'system', 'stream disconnected'],
      ['compaction', 'summary', ''],
    ]);
    const reply = result.entries[3]!;
    expect(reply).toMatchObject({ model: 'gpt-5.3-codex', usage: { input: 100, cacheRead: 40, output: 10, reasoning: 4 }, timestamp: Date.parse(TS) });
    expect(result.entries[5]!.marker).toEqual({ source: 'codex.compacted' });
    expect(result.lines).toBe(18);
    expect(result.ignoredLines).toBe(18 - 7); // session_meta, 2 user messages, reasoning, assistant message, error, compacted
  });

  it('flags the aborted turn only', () => {
    const text = jsonl(meta(), user('q1'), assistant('a1'), user('q2'), event({ type: 'turn_aborted', reason: 'interrupted' }), user('q3'), assistant('a3'),
      event({ type: 'turn_aborted', reason: 'interrupted' }));
    const result = importText(text);
    expect(result.entries.filter((entry) => entry.flags?.aborted).map(entryText)).toEqual(['a3']);
  });
});
