import { describe, expect, it } from 'vitest';
import { entryText } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { isSqliteHeader, readCursorStore, type KeyValueRow } from './cursor-store.ts';
import { importText } from './run.ts';

const row = (key: string, value: unknown): KeyValueRow => ({ key, value: typeof value === 'string' ? value : JSON.stringify(value) });
const composer = (id: string, bubbles: string[], extra: Record<string, unknown> = {}) =>
  row(`composerData:${id}`, { _v: 10, composerId: id, createdAt: 1_000, fullConversationHeadersOnly: bubbles.map((bubbleId) => ({ bubbleId, type: 1 })), ...extra });

describe('Cursor chat store rows', () => {
  it('recognizes an SQLite file by its first 16 bytes', () => {
    expect(isSqliteHeader(new TextEncoder().encode('SQLite format 3\0and more'))).toBe(true);
    expect(isSqliteHeader(new TextEncoder().encode('SQLite format 3'))).toBe(false);
    expect(isSqliteHeader(new TextEncoder().encode('{"role":"user","message":{}}'))).toBe(false);
  });

  it('assembles each composer from its headers and bubble rows, in header order, copying only what an import reads', () => {
    const store = readCursorStore([
      composer('c1', ['b2', 'b1'], { name: 'Rename', modelConfig: { modelName: 'gpt-5' }, speculativeSummarizationEncryptionKey: 'secret', context: { fileSelections: ['x'] }, subComposerIds: ['c2'] }),
      row('bubbleId:c1:b1', { type: 2, bubbleId: 'b1', text: 'done', codeBlocks: [{ content: 'x' }], tokenCount: { inputTokens: 10, outputTokens: 2 } }),
      row('bubbleId:c1:b2', { type: 1, bubbleId: 'b2', text: 'rename foo', attachedCodeChunks: [{ text: 'file body' }] }),
      composer('c2', ['s1'], { lastUpdatedAt: 5_000 }),
      row('bubbleId:c2:s1', { type: 1, bubbleId: 's1', text: 'find callers\nof foo' }),
      row('checkpointId:c1:k', { files: [] }),
    ]);
    expect(store.problems).toEqual([]);
    expect(store.composers.map((c) => [c.composerId, c.name, c.parentId])).toEqual([['c2', 'find callers', 'c1'], ['c1', 'Rename', undefined]]);
    const doc = store.composers[1]!.document;
    expect(doc).toEqual({
      composerId: 'c1', name: 'Rename', createdAt: 1_000, modelName: 'gpt-5', subComposerIds: ['c2'],
      conversation: [{ type: 1, bubbleId: 'b2', text: 'rename foo' }, { type: 2, bubbleId: 'b1', text: 'done', tokenCount: { inputTokens: 10, outputTokens: 2 } }],
    });
    expect(JSON.stringify(store)).not.toContain('secret');
    expect(store.composers[0]!.document.parentComposerId).toBe('c1');
  });

  it('names a listed bubble the store lacks and a row that is no JSON object, leaves out empty composers and deleted bubbles', () => {
    const store = readCursorStore([
      composer('c1', ['b1', 'gone', 'nulled']),
      row('bubbleId:c1:b1', { type: 1, text: 'hi' }),
      row('bubbleId:c1:nulled', 'null'),
      row('bubbleId:c1:bad', '{"type": 2, "text": "cut'),
      row('composerData:c9', '[1]'),
      composer('empty', []),
      row('composerData:legacy', { composerId: 'legacy', conversation: [{ type: 1, text: 'old' }, 'junk'] }),
    ]);
    expect(store.composers.map((c) => [c.composerId, c.document.conversation.length])).toEqual([['c1', 1], ['legacy', 1]]);
    expect(store.empty).toBe(1);
    expect(store.problems).toEqual([
      { key: 'bubbleId:c1:bad', message: expect.stringMatching(/^not valid JSON/) },
      { key: 'composerData:c9', message: 'expected a JSON object, got an array' },
      { key: 'bubbleId:c1:gone', message: 'listed by composer c1 but not in the store; that message is left out' },
      { key: 'bubbleId:c1:nulled', message: 'listed by composer c1 but not in the store; that message is left out' },
    ]);
  });
});

describe('Cursor composer documents', () => {
  const doc = (conversation: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ composerId: 'c1', name: 'Fix it', createdAt: 1_700_000_000_000, conversation, ...extra }, null, 1);
  const tool = (status: string, result?: unknown) => ({ name: 'run_terminal_cmd', toolCallId: 'call_1', status, rawArgs: '{"command":"npm test"}', ...(result === undefined ? {} : { result }) });

  it('reads bubbles as entries: thinking, text, a tool call with its result right after, usage when counted', () => {
    const result = importText(doc([
      { type: 1, bubbleId: 'u', text: 'run the tests', createdAt: '2026-03-02T09:00:00.000Z' },
      { type: 2, bubbleId: 'a', text: '', thinking: { text: 'run them', signature: 's' }, toolFormerData: tool('error', '{"output":"1 failed"}'), tokenCount: { inputTokens: 900, outputTokens: 12 } },
      { type: 2, bubbleId: 'b', text: 'One test fails.', tokenCount: { inputTokens: 0, outputTokens: 0 } },
      { type: 2, bubbleId: 'empty', text: '' },
    ]));
    expect(result.format).toBe('cursor');
    expect(result.meta).toMatchObject({ sessionId: 'c1', title: 'Fix it', createdAt: 1_700_000_000_000 });
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}`)).toEqual(['u:user', 'a:assistant', 'a/result:tool', 'b:assistant']);
    expect(result.entries[0]!.timestamp).toBe(Date.parse('2026-03-02T09:00:00.000Z'));
    expect(result.entries[1]!.blocks).toEqual([
      { type: 'thinking', text: 'run them', signature: 's' },
      { type: 'tool_call', callId: 'call_1', name: 'run_terminal_cmd', input: { command: 'npm test' }, resultEntryId: 'a/result' },
    ]);
    expect(result.entries[1]!.usage).toEqual({ input: 900, output: 12 });
    expect(result.entries[2]!.blocks[0]).toMatchObject({ type: 'tool_result', callId: 'call_1', isError: true, toolName: 'run_terminal_cmd' });
    expect(entryText(result.entries[2]!)).toBe('{"output":"1 failed"}');
    expect(result.entries[3]!.usage).toBeUndefined();
    expect(result.ignoredLines).toBe(1);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 1, toolResults: 1, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('leaves a running call unanswered, reports a bubble of another type by its line, links a sub-composer to its parent', () => {
    const text = doc([{ type: 1, text: 'go' }, { type: 2, bubbleId: 'a', toolFormerData: tool('loading') }, { type: 3, bubbleId: 'x', text: '?' }, 7], { parentComposerId: 'p0' });
    const result = importText(text);
    expect(result.entries.map((entry) => entry.id)).toEqual(['b1', 'a']);
    expect(linkReport(result.entries)).toMatchObject({ toolCalls: 1, orphanToolCalls: 1 });
    expect(result.meta.subagent).toEqual({ parentSessionId: 'p0', agentId: 'c1' });
    const lines = text.split('\n');
    const line = (needle: string) => lines.findIndex((l) => l.includes(needle)) + 1;
    expect(result.issues).toEqual([
      { line: line('"type": 3') - 1, kind: 'unsupported', message: 'conversation[2] (bubble "x") has type number 3 (expected 1, a user message, or 2, an assistant message); skipped' },
      { line: line(' 7'), kind: 'malformed', message: 'conversation[3] is number 7, not a bubble; skipped' },
    ]);
  });
});
