import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entryText, type ToolResultBlock } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { importText } from './run.ts';

/** A real Copilot CLI 1.0.78 session (see public/samples/NOTICE.md). */
const SAMPLE = readFileSync(new URL('../../../public/samples/copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e/events.jsonl', import.meta.url), 'utf8');

let n = 0;
function event(type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  n++;
  return { type, data, id: `e${n}`, timestamp: `2026-08-05T20:40:${String(n).padStart(2, '0')}.000Z`, parentId: n > 1 ? `e${n - 1}` : null, ...extra };
}
function jsonl(...lines: unknown[]): string {
  return `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`;
}
const START = () => event('session.start', { sessionId: 's-1', version: 1, producer: 'copilot-agent', copilotVersion: '1.0.78', startTime: '2026-08-05T20:40:00.000Z', selectedModel: 'claude-sonnet-4.5', context: { cwd: '/work' } });

describe('GitHub Copilot CLI events.jsonl', () => {
  it('reads the real sample as counted by hand: the system prompt, the request and its wrapping, two failed calls with their results, the answer', () => {
    const result = importText(SAMPLE, { fileName: 'events.jsonl' });
    expect(result.format).toBe('copilot-cli');
    // session.start's context.branch and startTime.
    expect(result.meta).toMatchObject({ sessionId: '049410b4-c1df-44ee-87a5-caa1c349091e', version: '1.0.78', cwd: '/work', model: 'qwen3:0.6b', gitBranch: 'master', createdAt: Date.UTC(2026, 7, 5, 20, 40, 13, 471) });
    expect(result.entries.map((entry) => `${entry.role}:${entry.line}:${entry.sourceType}`)).toEqual([
      'system:3:system.message', 'user:4:user.message', 'user:4:user.message/transformedContent', 'assistant:6:assistant.message', 'tool:9:tool.execution_complete', 'tool:10:tool.execution_complete', 'assistant:13:assistant.message',
    ]);
    // session.start, model_change, 2 tool starts, 2 turn starts, 2 turn ends, shutdown.
    expect(result.ignoredLines).toBe(9);
    expect(result.issues).toEqual([]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 2, toolResults: 2, orphanToolCalls: 0, orphanToolResults: 0 });
    const [, user, context, first, result1] = result.entries;
    expect(entryText(user!)).toBe('In src/orders.py make average_item_price return 0 when the cart has no items.');
    expect(context!.flags).toEqual({ injected: true });
    expect(entryText(context!)).toMatch(/^<current_datetime>2026-08-05T20:40:13\.637\+00:00<\/current_datetime>\n\n\n\n<system_reminder>/);
    expect(first!.blocks.map((block) => block.type)).toEqual(['thinking', 'tool_call', 'tool_call']);
    expect(first!.blocks[1]).toMatchObject({ callId: 'call_fpjobf9a', name: 'view', input: { file_path: 'src/orders.py' } });
    expect(first!.model).toBe('qwen3:0.6b');
    expect(result1!.blocks[0]).toMatchObject({ type: 'tool_result', callId: 'call_fpjobf9a', isError: true, content: [{ type: 'text', text: '"path": Required' }] });
    // The log keeps no prompt figure per call: no usage is made up.
    expect(result.entries.filter((entry) => entry.usage)).toEqual([]);
  });

  it('keeps reasoning as thinking, usage events as the usage of their call, string arguments parsed, compactions as markers', () => {
    n = 0;
    const text = jsonl(
      START(),
      event('user.message', { content: 'Fix the bug', transformedContent: 'Fix the bug' }),
      event('assistant.reasoning', { reasoningId: 'r1', content: 'Look at the file first.' }),
      event('assistant.message', { messageId: 'm1', content: '', apiCallId: 'api-1', outputTokens: 30, toolRequests: [{ toolCallId: 'c1', name: 'shell', arguments: '{"command":"ls"}', type: 'function' }] }),
      event('tool.execution_start', { toolCallId: 'c1', toolName: 'shell', arguments: { command: 'ls' } }),
      event('assistant.usage', { model: 'claude-sonnet-4.5', apiCallId: 'api-1', inputTokens: 1200, outputTokens: 30, cacheReadTokens: 1000, cacheWriteTokens: 100 }, { ephemeral: true }),
      event('tool.execution_complete', { toolCallId: 'c1', success: true, result: { content: 'a.txt\n', detailedContent: 'a.txt\n' } }),
      event('assistant.message', { messageId: 'm2', content: 'Done.', reasoningOpaque: 'opaque', toolRequests: [] }),
      event('session.compaction_complete', { success: true, preCompactionTokens: 90000, summaryContent: '<overview>Fixed the bug</overview>', trigger: 'threshold' }),
      event('session.truncation', { tokenLimit: 1000, preTruncationTokensInMessages: 5000, postTruncationTokensInMessages: 900, preTruncationMessagesLength: 9, postTruncationMessagesLength: 3, tokensRemovedDuringTruncation: 4100, messagesRemovedDuringTruncation: 6, performedBy: 'BasicTruncator' }),
      event('session.error', { errorType: 'query', message: 'rate limited' }),
      event('abort', { reason: 'user initiated' }),
    );
    const result = importText(text);
    expect(result.format).toBe('copilot-cli');
    const byId = new Map(result.entries.map((entry) => [entry.id, entry]));
    const m1 = byId.get('e4')!;
    expect([m1.line, m1.lineEnd]).toEqual([3, 4]);
    expect(m1.blocks).toMatchObject([{ type: 'thinking', text: 'Look at the file first.' }, { type: 'tool_call', callId: 'c1', input: { command: 'ls' } }]);
    expect(m1.usage).toEqual({ input: 1200, output: 30, cacheRead: 1000, cacheWrite: 100 });
    expect(m1.model).toBe('claude-sonnet-4.5');
    expect(byId.get('e8')!.blocks).toEqual([{ type: 'thinking', text: '', redacted: true }, { type: 'text', text: 'Done.' }]);
    expect(byId.get('e8')!.usage).toBeUndefined();
    expect(byId.get('e9')).toMatchObject({ role: 'summary', kind: 'compaction', marker: { source: 'copilot.compaction', trigger: 'threshold', tokensBefore: 90000 } });
    expect(entryText(byId.get('e9')!)).toBe('<overview>Fixed the bug</overview>');
    expect(byId.get('e10')).toMatchObject({ kind: 'compaction', marker: { source: 'copilot.truncation', tokensBefore: 5000 } });
    expect(byId.get('e11')).toMatchObject({ kind: 'event', flags: { error: true } });
    expect(entryText(byId.get('e11')!)).toBe('[error] rate limited');
    expect(byId.get('e12')).toMatchObject({ kind: 'event', flags: { aborted: true } });
    // The same user text sent unchanged adds no wrapping entry.
    expect(result.entries.filter((entry) => entry.role === 'user')).toHaveLength(1);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 1, toolResults: 1, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it("makes a subagent's events a linked thread of their own, named by the call that started it", () => {
    n = 0;
    const text = jsonl(
      START(),
      event('user.message', { content: 'Explore the repo' }),
      event('assistant.message', { messageId: 'm1', content: '', toolRequests: [{ toolCallId: 'task-1', name: 'task', arguments: { prompt: 'List the modules' } }] }),
      event('subagent.started', { toolCallId: 'task-1', agentName: 'explore', agentDisplayName: 'Explore', agentDescription: 'Lists the modules' }),
      event('user.message', { content: 'List the modules' }, { agentId: 'sub-1' }),
      event('assistant.message', { messageId: 's1', content: '', toolRequests: [{ toolCallId: 'g1', name: 'glob', arguments: { pattern: 'src/*' } }] }, { agentId: 'sub-1' }),
      event('tool.execution_complete', { toolCallId: 'g1', success: true, result: { content: 'src/a\nsrc/b' } }, { agentId: 'sub-1' }),
      event('assistant.message', { messageId: 's2', parentToolCallId: 'task-1', content: 'Two modules: a and b.', toolRequests: [] }, { agentId: 'sub-1' }),
      event('subagent.completed', { toolCallId: 'task-1', agentName: 'explore', agentDisplayName: 'Explore' }),
      event('tool.execution_complete', { toolCallId: 'task-1', success: true, result: { content: 'Two modules: a and b.' } }),
    );
    const result = importText(text);
    expect(result.entries.map((entry) => entry.id)).toEqual(['e2', 'e3', 'e10']);
    expect(linkReport(result.entries)).toMatchObject({ orphanToolCalls: 0, orphanToolResults: 0 });
    expect(result.threads).toHaveLength(1);
    const thread = result.threads![0]!;
    expect(thread.entries.map((entry) => entry.id)).toEqual(['e5', 'e6', 'e7', 'e8']);
    expect(thread.meta).toEqual({ sessionId: 's-1', title: 'Lists the modules', model: 'claude-sonnet-4.5', subagent: { agentId: 'sub-1', parentToolUseId: 'task-1', parentSessionId: 's-1', agentType: 'explore', description: 'Lists the modules' } });
    expect(linkReport(thread.entries)).toEqual({ toolCalls: 1, toolResults: 1, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('links a thread keyed by parentToolCallId to its call, with the agent name and description', () => {
    n = 0;
    const result = importText(jsonl(
      START(),
      event('user.message', { content: 'Go' }),
      event('assistant.message', { messageId: 'm1', content: '', toolRequests: [{ toolCallId: 'task-1', name: 'task', arguments: {} }] }),
      event('subagent.started', { toolCallId: 'task-1', agentName: 'explore', agentDisplayName: 'Explore', agentDescription: 'Looks around' }),
      event('assistant.message', { messageId: 's1', parentToolCallId: 'task-1', content: 'Looked.' }),
      event('tool.execution_complete', { toolCallId: 'task-1', success: true, result: { content: 'Looked.' } }),
    ));
    expect(result.threads![0]!.meta.subagent).toEqual({ agentId: 'task-1', parentToolUseId: 'task-1', parentSessionId: 's-1', agentType: 'explore', description: 'Looks around' });
  });

  it('reports an unknown event type and a line that is no event by line, and refuses a malformed line while the rest imports', () => {
    n = 0;
    const result = importText(jsonl(
      START(),
      event('user.message', { content: 'hi' }),
      event('assistant.hologram', { beam: 1 }),
      '{"type":"assistant.message","data":{"content":"cut',
      { type: 'assistant.message', data: 'not an object' },
      event('assistant.message', { messageId: 'm1', content: 'Hello!' }),
    ));
    expect(result.issues.map(({ line, kind, message }) => `${line} ${kind} ${message.replace(/\(.*\)/, '(…)')}`)).toEqual([
      '3 unsupported event type "assistant.hologram" is not a Copilot CLI event Foldlab knows (…); skipped',
      '4 malformed not valid JSON (…); expected one JSON object per line',
      '5 malformed expected a Copilot CLI event {type, data, id, timestamp}, got "data" a string "not an object"; skipped',
    ]);
    expect(result.entries.map((entry) => entryText(entry))).toEqual(['hi', 'Hello!']);
  });

  it('keeps an error result as an error with its message, and reasoning left without a response as thinking', () => {
    n = 0;
    const result = importText(jsonl(
      START(),
      event('user.message', { content: 'Run it' }),
      event('assistant.message', { messageId: 'm1', content: '', toolRequests: [{ toolCallId: 'c1', name: 'shell', arguments: { command: 'false' } }] }),
      event('tool.execution_complete', { toolCallId: 'c1', success: false, error: { message: 'exit code 1', code: 'failure' } }),
      event('assistant.reasoning', { reasoningId: 'r', content: 'It failed.' }),
    ));
    const block = result.entries[2]!.blocks[0] as ToolResultBlock;
    expect(block).toMatchObject({ isError: true, content: [{ type: 'text', text: 'exit code 1' }] });
    expect(result.entries[3]).toMatchObject({ role: 'assistant', line: 5, blocks: [{ type: 'thinking', text: 'It failed.' }] });
  });
});
