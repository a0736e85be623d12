import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryText, type Entry, type ToolCallBlock, type ToolResultBlock } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { branchLeaves, listBranches } from '../journal/tree.ts';
import { ImportSession, importText } from './run.ts';

const LARGE = readFileSync(new URL('../../../public/samples/pi/large-session.jsonl', import.meta.url), 'utf8');
const SMALL = readFileSync(new URL('../../../public/samples/pi/v3-small.jsonl', import.meta.url), 'utf8');

/** The raw lines, read independently of the importer (only the fields the tests look at). */
interface RawMessage {
  role: string;
  content: Array<{ type: string; id?: string }>;
  toolCallId?: string;
  isError?: boolean;
  stopReason?: string;
  errorMessage?: string;
  model?: string;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
}
interface RawLine {
  type: string;
  id?: string;
  parentId?: string | null;
  cwd?: string;
  message: RawMessage;
}

function parseLines(text: string): RawLine[] {
  return text.split('\n').filter((line) => line.trim().length > 0).map((line) => JSON.parse(line) as RawLine);
}

function jsonl(...lines: unknown[]): string {
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

function toolCalls(entries: readonly Entry[]): ToolCallBlock[] {
  return entries.flatMap((entry) => entry.blocks.filter((block): block is ToolCallBlock => block.type === 'tool_call'));
}
function toolResults(entries: readonly Entry[]): ToolResultBlock[] {
  return entries.flatMap((entry) => entry.blocks.filter((block): block is ToolResultBlock => block.type === 'tool_result'));
}

function chunkedEqualsWhole(text: string, runs: number): void {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 24 }), (cuts) => {
      const points = [...new Set(cuts)].sort((a, b) => a - b);
      const session = new ImportSession();
      let start = 0;
      for (const point of [...points, text.length]) {
        session.push(text.slice(start, point));
        start = point;
      }
      expect(session.finish()).toEqual(importText(text));
    }),
    { numRuns: runs },
  );
}

describe('pi importer: large-session (v1, linear, mixed providers)', () => {
  const raw = parseLines(LARGE);
  const messages = raw.filter((line) => line.type === 'message').map((line) => line.message);
  const result = importText(LARGE, { fileName: 'large-session.jsonl' });

  it('makes one entry per message line and nothing else', () => {
    expect(result.format).toBe('pi');
    expect(result.issues).toEqual([]);
    expect(messages).toHaveLength(914);
    expect(result.entries).toHaveLength(messages.length);
    expect(result.lines).toBe(raw.length);
    expect(result.ignoredLines).toBe(raw.length - messages.length); // header, model_change, thinking_level_change
    // The header's timestamp is when the session started (2025-11-20T23:33:50.805Z).
    expect(result.meta).toEqual({ sessionId: raw[0]!.id, cwd: raw[0]!.cwd, version: '1', model: 'claude-sonnet-4-5', createdAt: Date.UTC(2025, 10, 20, 23, 33, 50, 805) });
  });

  it('maps roles as counted from the raw JSON', () => {
    const count = (role: string) => messages.filter((message) => message.role === role).length;
    const roles: Record<string, number> = {};
    for (const entry of result.entries) roles[entry.role] = (roles[entry.role] ?? 0) + 1;
    expect(roles).toEqual({ user: count('user'), assistant: count('assistant'), tool: count('toolResult') });
    expect(roles).toEqual({ user: 88, assistant: 453, tool: 373 });
    expect(result.entries.every((entry) => entry.kind === 'message')).toBe(true);
  });

  it('keeps every tool call and reports the orphans of aborted requests', () => {
    const callIds = messages.filter((m) => m.role === 'assistant').flatMap((m) => m.content.filter((b) => b.type === 'toolCall').map((b) => b.id));
    const resultIds = new Set(messages.filter((m) => m.role === 'toolResult').map((m) => m.toolCallId));
    const orphanCalls = callIds.filter((id) => !resultIds.has(id)).length;
    expect(callIds).toHaveLength(391);
    expect(orphanCalls).toBe(18);
    expect(linkReport(result.entries)).toEqual({ toolCalls: callIds.length, toolResults: resultIds.size, orphanToolCalls: orphanCalls, orphanToolResults: 0 });
    const errors = messages.filter((m) => m.role === 'toolResult' && m.isError).length;
    expect(toolResults(result.entries).filter((block) => block.isError)).toHaveLength(errors);
    expect(toolResults(result.entries).every((block) => typeof block.toolName === 'string')).toBe(true);
  });

  it('flags aborted and errored responses; errorMessage is text only when there is no content', () => {
    const assistants = messages.filter((m) => m.role === 'assistant');
    const entries = result.entries.filter((entry) => entry.role === 'assistant');
    expect(entries.filter((entry) => entry.flags?.aborted)).toHaveLength(assistants.filter((m) => m.stopReason === 'aborted').length);
    expect(entries.filter((entry) => entry.flags?.error)).toHaveLength(assistants.filter((m) => m.stopReason === 'error').length);
    const empty = assistants.filter((m) => m.content.length === 0 && m.errorMessage);
    expect(entries.filter((entry) => entry.flags?.synthetic)).toHaveLength(empty.length);
    expect(entries.filter((entry) => entry.flags?.synthetic).every((entry) => entryText(entry).startsWith('Request was aborted'))).toBe(true);
  });

  it('normalizes usage so input includes cache reads and writes', () => {
    const assistants = messages.filter((m) => m.role === 'assistant');
    const entries = result.entries.filter((entry) => entry.role === 'assistant');
    assistants.forEach((m, i) => {
      const usage = m.usage;
      expect(entries[i]!.usage).toEqual({ input: usage.input + usage.cacheRead + usage.cacheWrite, output: usage.output, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite });
      expect(entries[i]!.model).toBe(m.model);
    });
    expect(new Set(entries.map((entry) => entry.model))).toEqual(new Set(['gpt-5.1-codex', 'claude-sonnet-4-5']));
  });

  it('chains entries linearly into one branch', () => {
    expect(result.entries[0]!.parentId).toBeNull();
    expect(result.entries.slice(1).every((entry, i) => entry.parentId === result.entries[i]!.id)).toBe(true);
    expect(branchLeaves(result.entries)).toHaveLength(1);
  });

  it('gives the same result however the text is chunked', () => {
    chunkedEqualsWhole(LARGE, 15);
  });
});

describe('pi importer: v3-small (id/parentId tree, two compactions)', () => {
  const raw = parseLines(SMALL);
  const result = importText(SMALL);

  it('keeps ids, resolves parents through non-entry lines, and makes markers', () => {
    expect(result.format).toBe('pi');
    expect(result.issues).toEqual([]);
    expect(result.meta).toMatchObject({ sessionId: raw[0]!.id, cwd: raw[0]!.cwd, version: '3', model: 'pi-fixture-model' });
    const ids = raw.filter((line) => line.type === 'message' || line.type === 'compaction').map((line) => line.id);
    expect(result.entries.map((entry) => entry.id)).toEqual(ids);
    // The first message's parent is a thinking_level_change whose parent is a root model_change.
    expect(result.entries[0]!.parentId).toBeNull();
    expect(result.ignoredLines).toBe(3);
  });

  it('has two compaction markers whose firstKeptEntryId names an existing entry', () => {
    const markers = result.entries.filter((entry) => entry.kind === 'compaction');
    expect(markers).toHaveLength(raw.filter((line) => line.type === 'compaction').length);
    expect(markers).toHaveLength(2);
    const ids = new Set(result.entries.map((entry) => entry.id));
    for (const marker of markers) {
      expect(marker.role).toBe('summary');
      expect(marker.marker).toMatchObject({ source: 'pi.compaction', tokensBefore: 19, readFiles: [], modifiedFiles: [] });
      expect(ids.has(marker.marker!.firstKeptEntryId!)).toBe(true);
      // The file names the model_change line; the first entry kept after it is the first user message.
      expect(marker.marker!.firstKeptEntryId).toBe('30c6a75f');
    }
    expect(entryText(markers[0]!)).toBe('hello.py prints a fixture greeting.');
  });

  it('has as many branches as the raw tree has leaves', () => {
    const parents = new Set(raw.map((line) => line.parentId).filter((id) => typeof id === 'string'));
    const leaves = raw.filter((line) => typeof line.id === 'string' && line.type !== 'session' && !parents.has(line.id));
    expect(branchLeaves(result.entries)).toHaveLength(leaves.length);
    expect(leaves).toHaveLength(1);
  });

  it('gives the same result however the text is chunked', () => {
    chunkedEqualsWhole(SMALL, 60);
  });
});

describe('pi importer: inline cases', () => {
  const TS = '2026-01-01T00:00:00.000Z';
  const header = (version?: number) => ({ type: 'session', ...(version ? { version } : {}), id: 'sess', timestamp: TS, cwd: '/p' });
  const msg = (id: string, parentId: string | null, message: Record<string, unknown>) => ({ type: 'message', id, parentId, timestamp: TS, message });
  const userText = (text: string) => ({ role: 'user', content: text, timestamp: 1 });
  const reply = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }], model: 'm', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: 'stop' });

  it('converts a v1 firstKeptEntryIndex (header included) to an entry id', () => {
    const text = jsonl(
      { type: 'session', id: 'v1', timestamp: TS, cwd: '/p', provider: 'anthropic', modelId: 'claude-opus-4-5' },
      { type: 'message', timestamp: TS, message: userText('one') },
      { type: 'message', timestamp: TS, message: reply('two') },
      { type: 'thinking_level_change', timestamp: TS, thinkingLevel: 'high' },
      { type: 'message', timestamp: TS, message: userText('three') },
      { type: 'compaction', timestamp: TS, summary: 'sum A', firstKeptEntryIndex: 2, tokensBefore: 500 },
      { type: 'compaction', timestamp: TS, summary: 'sum B', firstKeptEntryIndex: 3, tokensBefore: 600, details: { readFiles: ['a.ts'], modifiedFiles: ['b.ts'] } },
    );
    const result = importText(text);
    expect(result.meta).toEqual({ sessionId: 'v1', cwd: '/p', version: '1', model: 'claude-opus-4-5', createdAt: Date.parse(TS) });
    const markers = result.entries.filter((entry) => entry.kind === 'compaction');
    // Index 2 is line 3 (the reply); index 3 is the thinking_level_change, so the next entry (line 5) is kept first.
    expect(markers.map((entry) => entry.marker)).toEqual([
      { source: 'pi.compaction', tokensBefore: 500, firstKeptEntryId: 'l3' },
      { source: 'pi.compaction', tokensBefore: 600, readFiles: ['a.ts'], modifiedFiles: ['b.ts'], firstKeptEntryId: 'l5' },
    ]);
    expect(result.entries.map((entry) => entry.id)).toEqual(['l2', 'l3', 'l5', 'l6', 'l7']);
  });

  it('reads a v3 tree with an abandoned branch, branch_summary and entries that are not messages', () => {
    const text = jsonl(
      header(3),
      { type: 'model_change', id: 'mc', parentId: null, timestamp: TS, provider: 'openai', modelId: 'gpt-5' },
      msg('u1', 'mc', userText('start')),
      msg('a1', 'u1', reply('first try')),
      msg('u2', 'a1', userText('go left')),
      msg('a2', 'u2', reply('went left')),
      { type: 'label', id: 'lb', parentId: 'a2', timestamp: TS, targetId: 'a2', label: 'left' },
      { type: 'branch_summary', id: 'bs', parentId: 'a1', timestamp: TS, fromId: 'a2', summary: 'We tried left.' },
      msg('u3', 'bs', userText('go right')),
      { type: 'custom_message', id: 'cm', parentId: 'u3', timestamp: TS, customType: 'ext', content: 'extension note', display: true },
      { type: 'custom', id: 'cu', parentId: 'cm', timestamp: TS, customType: 'ext', data: {} },
      msg('a3', 'cu', reply('went right')),
      { type: 'session_info', id: 'si', parentId: 'a3', timestamp: TS, name: 'Left or right' },
    );
    const result = importText(text);
    expect(result.issues).toEqual([]);
    expect(result.meta).toMatchObject({ model: 'gpt-5', title: 'Left or right', version: '3' });
    const byId = new Map(result.entries.map((entry) => [entry.id, entry]));
    expect(byId.get('u1')!.parentId).toBeNull();
    expect(byId.get('a3')!.parentId).toBe('cm'); // through the `custom` line
    expect(byId.get('bs')).toMatchObject({ kind: 'compaction', role: 'summary', parentId: 'a1', marker: { source: 'pi.branch_summary', fromId: 'a2' } });
    expect(byId.get('cm')).toMatchObject({ role: 'user', flags: { injected: true } });
    expect(branchLeaves(result.entries).map((entry) => entry.id)).toEqual(['a2', 'a3']);
    expect(listBranches(result.entries)[0]).toMatchObject({ leafId: 'a3', active: true, label: 'go right' });
    expect(listBranches(result.entries)[1]).toMatchObject({ leafId: 'a2', forkId: 'a1' });
    expect(result.ignoredLines).toBe(5); // header, model_change, label, custom, session_info
  });

  it('maps message roles: tool results, bash executions, custom / hook messages, summaries, thinking', () => {
    const text = jsonl(
      header(2),
      msg('u1', null, { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] }),
      msg('a1', 'u1', {
        role: 'assistant',
        content: [{ type: 'thinking', thinking: 'hmm', thinkingSignature: 'sig' }, { type: 'toolCall', id: 't1', name: 'read', arguments: { path: 'a' } }],
        usage: { input: 10, output: 5, cacheRead: 100, cacheWrite: 20 }, stopReason: 'toolUse', model: 'claude',
      }),
      msg('r1', 'a1', { role: 'toolResult', toolCallId: 't1', toolName: 'read', content: [{ type: 'text', text: 'nope' }], isError: true }),
      msg('b1', 'r1', { role: 'bashExecution', command: 'ls', output: 'a\nb', exitCode: 0, cancelled: false, truncated: false }),
      msg('b2', 'b1', { role: 'bashExecution', command: 'false', output: '', exitCode: 1, cancelled: false, truncated: false, excludeFromContext: true }),
      msg('h1', 'b2', { role: 'hookMessage', customType: 'x', content: 'hook says hi', display: true }),
      msg('c1', 'h1', { role: 'custom', customType: 'x', content: [{ type: 'text', text: 'custom says hi' }], display: false }),
      msg('s1', 'c1', { role: 'compactionSummary', summary: 'so far', tokensBefore: 1234 }),
      msg('s2', 's1', { role: 'branchSummary', summary: 'other branch', fromId: 'zz' }),
      msg('e1', 's2', { role: 'assistant', content: [], stopReason: 'error', errorMessage: '529 overloaded' }),
      msg('e2', 'e1', { role: 'assistant', content: [{ type: 'text', text: 'partial' }], stopReason: 'aborted', errorMessage: 'Request was aborted' }),
    );
    const result = importText(text);
    const byId = new Map(result.entries.map((entry) => [entry.id, entry]));
    expect(byId.get('u1')!.blocks).toEqual([{ type: 'text', text: 'look' }, { type: 'image', mediaType: 'image/png', bytes: 3, source: 'base64' }]);
    expect(byId.get('a1')).toMatchObject({ model: 'claude', usage: { input: 130, output: 5, cacheRead: 100, cacheWrite: 20 } });
    expect(byId.get('a1')!.blocks[0]).toEqual({ type: 'thinking', text: 'hmm', signature: 'sig' });
    expect(byId.get('a1')!.blocks[1]).toMatchObject({ type: 'tool_call', callId: 't1', name: 'read', input: { path: 'a' }, resultEntryId: 'r1' });
    expect(byId.get('r1')).toMatchObject({ role: 'tool', blocks: [{ type: 'tool_result', callId: 't1', toolName: 'read', isError: true, callEntryId: 'a1' }] });
    expect(byId.get('b1')).toMatchObject({ role: 'user', kind: 'message' });
    expect(entryText(byId.get('b1')!)).toBe('$ ls\na\nb');
    expect(byId.get('b2')).toMatchObject({ role: 'user', kind: 'event' });
    expect(entryText(byId.get('b2')!)).toBe('$ false\n\n(exit code 1)');
    expect(byId.get('h1')).toMatchObject({ role: 'user', flags: { injected: true } });
    expect(byId.get('c1')).toMatchObject({ role: 'user', flags: { injected: true } });
    expect(byId.get('s1')).toMatchObject({ role: 'summary', kind: 'compaction', marker: { source: 'pi.compactionSummary', tokensBefore: 1234 } });
    expect(byId.get('s2')).toMatchObject({ role: 'summary', kind: 'compaction', marker: { source: 'pi.branchSummary', fromId: 'zz' } });
    expect(byId.get('e1')).toMatchObject({ flags: { error: true, synthetic: true }, blocks: [{ type: 'text', text: '529 overloaded' }] });
    expect(byId.get('e2')).toMatchObject({ flags: { aborted: true }, blocks: [{ type: 'text', text: 'partial' }] });
    expect(toolCalls(result.entries)).toHaveLength(1);
  });

  it('reports a parentId that names no earlier line and makes the entry a root', () => {
    const result = importText(jsonl(header(3), msg('u1', null, userText('a')), msg('u2', 'missing', userText('b'))));
    expect(result.entries.map((entry) => entry.parentId)).toEqual([null, null]);
    expect(result.issues).toMatchObject([{ line: 3, kind: 'malformed' }]);
  });
});
