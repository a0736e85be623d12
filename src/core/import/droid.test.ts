import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entryText, type ToolCallBlock, type ToolResultBlock } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { activeLeaf, listBranches, pathTo } from '../journal/tree.ts';
import { buildInput } from '../compaction/input.ts';
import { getEstimator } from '../tokens/counters.ts';
import { importText } from './run.ts';

const read = (name: string) => readFileSync(new URL(`../../../public/samples/droid/${name}`, import.meta.url), 'utf8');
/** Real `droid exec --output-format stream-json` runs (see public/samples/NOTICE.md). */
const EXEC = read('exec-rc-claude.jsonl');
const DENIED = read('exec-permission-denied.jsonl');
/** A session store file in the shape Droid writes. */
const STORE = read('b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl');

function jsonl(...lines: unknown[]): string {
  return `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`;
}

describe('Factory Droid stream-json', () => {
  it('reads the real Claude run as counted by hand: 9 answers with text, 5 turns of calls only, 20 calls each with its result', () => {
    const result = importText(EXEC, { fileName: 'exec-rc-claude.jsonl' });
    expect(result.format).toBe('droid');
    expect(result.meta).toMatchObject({ sessionId: '0ee69bfb-c030-4de5-bf28-f952e154cd1e', cwd: '/private/tmp/droid-claude', model: 'claude-sonnet-4-5-20250929' });
    const roles = result.entries.map((entry) => entry.role);
    expect(roles.filter((role) => role === 'user')).toHaveLength(1);
    expect(roles.filter((role) => role === 'assistant')).toHaveLength(14);
    expect(roles.filter((role) => role === 'tool')).toHaveLength(20);
    expect(result.ignoredLines).toBe(1);
    expect(result.issues).toEqual([]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 20, toolResults: 20, orphanToolCalls: 0, orphanToolResults: 0 });
    // Line 3 is the first answer; its three calls (lines 4-6) join it.
    const first = result.entries[1]!;
    expect([first.id, first.line, first.lineEnd]).toEqual(['49fedd32-b730-4f95-9e29-fcbf2f6b2208', 3, 6]);
    expect(first.blocks.map((block) => (block.type === 'tool_call' ? block.name : block.type))).toEqual(['text', 'TodoWrite', 'Execute', 'Execute']);
    expect((first.blocks[2] as ToolCallBlock).input).toMatchObject({ command: 'rustc --version' });
    // Lines 13-14: two calls of one response that wrote no text.
    const callsOnly = result.entries.find((entry) => entry.line === 13)!;
    expect([callsOnly.id, callsOnly.lineEnd, callsOnly.blocks.length]).toEqual(['94e78430-f0c9-4edb-b7d6-7acb92a205c2', 14, 2]);
    expect(entryText(result.entries.at(-1)!)).toMatch(/^Perfect! All tasks completed successfully/);
  });

  it('reads the real run refused for permission: the error result and the closing error as an error event', () => {
    const result = importText(DENIED, { fileName: 'exec-permission-denied.jsonl' });
    expect(result.format).toBe('droid');
    expect(result.entries.map((entry) => `${entry.role}:${entry.kind}:${entry.line}`)).toEqual([
      'user:message:2', 'assistant:message:3', 'tool:message:4', 'assistant:message:5', 'tool:message:6', 'assistant:message:7', 'tool:message:8', 'assistant:message:9', 'tool:message:10', 'assistant:message:11', 'system:event:12',
    ]);
    const refused = result.entries[8]!.blocks[0] as ToolResultBlock;
    expect(refused).toMatchObject({ callId: 'call_4ReFFWqaXZ4EgWF9wRuMtOqS', isError: true, content: [{ type: 'text', text: 'Error: tool execution cancelled' }] });
    expect(result.entries[10]!.flags).toEqual({ error: true });
    expect(linkReport(result.entries)).toEqual({ toolCalls: 4, toolResults: 4, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('answers the oldest open call when a result has no id, keeps a differing final text, reads the older field names', () => {
    const result = importText(jsonl(
      { type: 'system', subtype: 'init', sessionId: 's-2', timestamp: 1767812640310, model: 'droid-model', cwd: '/tmp' },
      { type: 'message', sessionId: 's-2', timestamp: 1767812641000, role: 'user', text: 'List files', id: 'm1' },
      { type: 'tool_call', session_id: 's-2', toolCallId: 'c1', toolName: 'Shell', parameters: { command: 'ls' } },
      { type: 'tool_call', session_id: 's-2', toolCallId: 'c2', toolName: 'Shell', parameters: { command: 'pwd' } },
      { type: 'tool_result', session_id: 's-2', value: { stdout: 'a\n', exitCode: 0 } },
      { type: 'tool_result', session_id: 's-2', isError: true, value: 'no such directory' },
      { type: 'completion', session_id: 's-2', finalText: 'Done', usage: { input_tokens: 10, output_tokens: 5 } },
      { type: 'completion', session_id: 's-2', finalText: 'Done' },
    ));
    expect(result.format).toBe('droid');
    expect(result.meta).toMatchObject({ sessionId: 's-2', model: 'droid-model' });
    const results = result.entries.filter((entry) => entry.role === 'tool').map((entry) => entry.blocks[0] as ToolResultBlock);
    expect(results.map((block) => [block.callId, block.isError, entryText({ blocks: [block] } as never)])).toEqual([['c1', false, '{"stdout":"a\\n","exitCode":0}'], ['c2', true, 'no such directory']]);
    expect(linkReport(result.entries)).toMatchObject({ orphanToolCalls: 0, orphanToolResults: 0 });
    // The first completion is new text; the second repeats it.
    expect(result.entries.filter((entry) => entryText(entry) === 'Done')).toHaveLength(1);
    expect(result.ignoredLines).toBe(2);
    // Run totals are not usage of one call.
    expect(result.entries.some((entry) => entry.usage)).toBe(false);
  });
});

describe('Factory Droid session store', () => {
  it('reads the sample as counted by hand: thinking kept, results split from the user text, the compaction as a marker, todo state as metadata', () => {
    const result = importText(STORE, { fileName: 'b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl' });
    expect(result.format).toBe('droid');
    expect(result.meta).toMatchObject({ sessionId: 'b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14', title: 'Fix rounding in invoice totals', cwd: '/home/dev/projects/invoice-api', version: '2' });
    expect(result.entries.map((entry) => `${entry.role}:${entry.line}`)).toEqual([
      'user:2', 'assistant:3', 'tool:4', 'assistant:5', 'tool:6', 'assistant:8', 'tool:9', 'summary:10', 'user:11', 'assistant:12', 'tool:13', 'assistant:14',
    ]);
    expect(result.ignoredLines).toBe(2);
    expect(result.issues).toEqual([]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 5, toolResults: 5, orphanToolCalls: 0, orphanToolResults: 0 });
    expect(result.entries[1]!.blocks[0]).toMatchObject({ type: 'thinking', text: expect.stringMatching(/^Totals off by a cent/), signature: 'EqQBCkgIBhABGAIqQJ9sig' });
    expect((result.entries[4]!.blocks[1] as ToolResultBlock).isError).toBe(true);
    expect(result.entries[7]).toMatchObject({ kind: 'compaction', marker: { source: 'droid.compaction_state' } });
    expect(entryText(result.entries[7]!)).toMatch(/^## Summary\nThe user asked to fix invoice totals/);
  });

  it('splits a user message holding results and text, flags llm_only text, takes a recorded usage, reports what it does not know', () => {
    const result = importText(jsonl(
      { type: 'session_start', id: 's-3', title: 'T', cwd: '/w' },
      { type: 'message', id: 'a1', message: { role: 'assistant', model: 'claude-opus-4-1', usage: { input_tokens: 4, cache_read_input_tokens: 900, output_tokens: 20 }, content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }, { type: 'hologram', beam: 1 }] } },
      { type: 'message', id: 'u1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }, { type: 'text', text: 'and also this' }] } },
      { type: 'message', id: 'u2', visibility: 'llm_only', message: { role: 'user', content: [{ type: 'text', text: '<system-reminder>be brief</system-reminder>' }] } },
      { type: 'message', id: 'x', message: { role: 'system', content: [] } },
      { type: 'mystery', id: 'y' },
      '{"type":"message","id":"cut',
    ));
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}`)).toEqual(['a1:assistant', 'u1/results:tool', 'u1:user', 'u2:user']);
    expect(result.entries[0]!.usage).toEqual({ input: 904, output: 20, cacheRead: 900 });
    expect(result.entries[0]!.model).toBe('claude-opus-4-1');
    expect(result.entries[3]!.flags).toEqual({ injected: true });
    expect(result.issues.map(({ line, kind, message }) => `${line} ${kind} ${message}`)).toEqual([
      '2 unsupported content block type "hologram" kept as text (Foldlab reads text, thinking, tool_use, tool_result, image and document)',
      '5 malformed message "x" has role "system" and content (expected a user or assistant message with content); skipped',
      '6 unsupported line type "mystery" is not a Factory Droid session or stream-json line (keys: type, id); skipped',
      '7 malformed not valid JSON (Unterminated string in JSON at position 27); expected one JSON object per line',
    ]);
  });

  it('takes the model from modelId and llm_only from the message\'s own visibility, as Droid 0.226 writes them', () => {
    const result = importText(jsonl(
      { type: 'session_start', id: 's-4', title: 'T', version: 2, cwd: '/w' },
      { type: 'message', id: 'context-u1', timestamp: '2026-09-24T09:30:26.799Z', message: { role: 'user', content: [{ type: 'text', text: '<system-reminder>Current date: 2026-09-24.</system-reminder>' }], visibility: 'llm_only' } },
      { type: 'message', id: 'u1', parentId: 'context-u1', timestamp: '2026-09-24T09:30:26.803Z', message: { role: 'user', content: [{ type: 'text', text: 'What was my previous question?' }], interactionMode: 'auto' } },
      { type: 'message', id: 'a1', parentId: 'u1', timestamp: '2026-09-24T09:30:26.886Z', message: { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }], openaiMessageId: 'msg_1', modelId: 'custom:Mock-0', reasoningEffort: 'none' } },
    ));
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}:${entry.model ?? '-'}:${entry.flags?.injected === true ? 'injected' : '-'}`)).toEqual(['context-u1:user:-:injected', 'u1:user:-:-', 'a1:assistant:custom:Mock-0:-']);
  });
});

/** A session store file with a subagent and a rewind, its subagent's own file and its `.settings.json` (see public/samples/NOTICE.md). */
const PARENT_ID = 'e3a7c1d9-52b8-4f06-8d3e-9b1f4a6c2e70';
const PARENT = read(`${PARENT_ID}.jsonl`);
const SUBAGENT = read('5b9d2f4e-8c13-4a7b-b6e0-2d4f6a8c1e93.jsonl');

describe('Factory Droid session store tree and subagents', () => {
  it('keeps the rewind as a branch: the abandoned reply (lines 8-9) and the path taken (lines 10-13) both hang under line 7', () => {
    const result = importText(PARENT, { fileName: `${PARENT_ID}.jsonl` });
    expect(result.issues).toEqual([]);
    const byLine = (line: number) => result.entries.find((entry) => entry.line === line)!;
    expect(byLine(2).parentId).toBeNull();
    expect(byLine(8).parentId).toBe(byLine(7).id);
    expect(byLine(10).parentId).toBe(byLine(7).id);
    expect(byLine(11).parentId).toBe(byLine(10).id);
    expect(listBranches(result.entries)).toHaveLength(2);
    const leaf = activeLeaf(result.entries)!;
    expect(leaf.line).toBe(13);
    expect(pathTo(result.entries, leaf.id).map((index) => result.entries[index]!.line)).toEqual([2, 3, 4, 5, 6, 7, 10, 11, 12, 13]);
    expect(result.meta.subagent).toBeUndefined();
    expect(linkReport(result.entries)).toEqual({ toolCalls: 3, toolResults: 3, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('links the subagent session to its caller: callingSessionId and callingToolUseId (the parent Task call on line 5)', () => {
    const result = importText(SUBAGENT, { fileName: '5b9d2f4e-8c13-4a7b-b6e0-2d4f6a8c1e93.jsonl' });
    expect(result.format).toBe('droid');
    expect(result.meta).toMatchObject({ sessionId: '5b9d2f4e-8c13-4a7b-b6e0-2d4f6a8c1e93', title: 'Review the CSV export', subagent: { parentSessionId: PARENT_ID, parentToolUseId: 'toolu_01TaskReview3nV8cW2yL5q' } });
    const parent = importText(PARENT, { fileName: `${PARENT_ID}.jsonl` });
    const task = parent.entries.flatMap((entry) => entry.blocks).find((block): block is ToolCallBlock => block.type === 'tool_call' && block.name === 'Task')!;
    expect(task.callId).toBe(result.meta.subagent!.parentToolUseId);
    expect(result.entries.map((entry) => `${entry.role}:${entry.line}`)).toEqual(['user:2', 'assistant:3', 'tool:4', 'assistant:5']);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 1, toolResults: 1, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('puts a compaction marker on the path it summarizes: what follows the message before it hangs under the marker', () => {
    const result = importText(STORE, { fileName: 'b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl' });
    const marker = result.entries.find((entry) => entry.kind === 'compaction')!;
    expect(marker.parentId).toBe(result.entries.find((entry) => entry.line === 9)!.id);
    expect(result.entries.find((entry) => entry.line === 11)!.parentId).toBe(marker.id);
    expect(listBranches(result.entries)).toHaveLength(1);
  });

  it('makes a message whose parentId names no earlier message a root, said by line; a caller naming itself is no subagent; lines without parentId chain', () => {
    const result = importText(jsonl(
      { type: 'session_start', id: 's-4', callingSessionId: 's-4' },
      { type: 'message', id: 'u1', parentId: 's-4', message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } },
      { type: 'message', id: 'a1', parentId: 'gone', message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }] } },
      { type: 'message', id: 'u2', message: { role: 'user', content: [{ type: 'text', text: 'again' }] } },
    ));
    expect(result.meta.subagent).toBeUndefined();
    expect(result.entries.map((entry) => [entry.id, entry.parentId])).toEqual([['u1', null], ['a1', null], ['u2', 'a1']]);
    expect(result.issues.map(({ line, message }) => `${line} ${message}`)).toEqual(['3 parentId "gone" names no earlier message; the entry was made a root']);
  });
});

/** The input a replay from the source agent's last compaction starts with: its entries, and where its calls to replay start (after the summary and the kept entries). */
function fromLastCompaction(entries: ReturnType<typeof importText>['entries']) {
  const built = buildInput(entries, entries.map(() => 1), getEstimator('chars4'), { contextWindow: 200_000, from: 'last-compaction' });
  return { ids: built.input.entries.map((entry) => entry.id), lines: built.input.entries.map((entry) => entry.line), firstCall: built.firstCall, note: built.scope.note };
}

describe('Factory Droid compaction anchor', () => {
  it('keeps the sample\'s history from line 8: the anchor is the message on line 5, whose results (line 6) the summary replaced', () => {
    const result = importText(STORE, { fileName: 'b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl' });
    expect(result.issues).toEqual([]);
    const marker = result.entries.find((entry) => entry.kind === 'compaction')!;
    expect(marker.marker).toEqual({ source: 'droid.compaction_state', firstKeptEntryId: '1b7f9e3d-4c58-4e2a-9a60-7d4b2f8c1e07' });
    // What Droid's model saw after the compaction: the summary, the kept edit and its result, then the turn after.
    const input = fromLastCompaction(result.entries);
    expect(input.lines).toEqual([10, 8, 9, 11, 12, 13, 14]);
    expect(input.firstCall).toBe(3);
    expect(input.note).toMatch(/^From the compaction the source agent recorded at line 10: its summary, the 2 entries it kept \(from line 8, as the agent rebuilt its context/);
    expect(linkReport(result.entries.filter((entry) => input.ids.includes(entry.id)))).toMatchObject({ orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('keeps the messages after the anchor (the summary, then u2 onward), nothing when the anchor is the last message, everything after it when it names none', () => {
    const lines = [
      { type: 'session_start', id: 's', title: 't', cwd: '/w' },
      { type: 'message', id: 'u1', message: { role: 'user', content: [{ type: 'text', text: 'first' }] } },
      { type: 'message', id: 'a1', parentId: 'u1', message: { role: 'assistant', content: [{ type: 'text', text: 'one' }] } },
      { type: 'message', id: 'u2', parentId: 'a1', message: { role: 'user', content: [{ type: 'text', text: 'second' }] } },
      { type: 'message', id: 'a2', parentId: 'u2', message: { role: 'assistant', content: [{ type: 'text', text: 'two' }] } },
    ];
    const after = { type: 'message', id: 'u3', parentId: 'a2', message: { role: 'user', content: [{ type: 'text', text: 'third' }] } };
    const compaction = (anchor?: unknown) => ({ type: 'compaction_state', id: 'c', summaryText: 'S', summaryKind: 'llm_summary', ...(anchor === undefined ? {} : { anchorMessage: anchor }) });

    const anchored = importText(jsonl(...lines, compaction({ id: 'a1', index: 1 }), after));
    expect(anchored.issues).toEqual([]);
    expect(anchored.entries.find((entry) => entry.id === 'c')!.marker).toEqual({ source: 'droid.compaction_state', firstKeptEntryId: 'u2' });
    expect(fromLastCompaction(anchored.entries).ids).toEqual(['c', 'u2', 'a2', 'u3']);

    const last = importText(jsonl(...lines, compaction({ id: 'a2', index: 3 }), after));
    expect(last.issues).toEqual([]);
    expect(last.entries.find((entry) => entry.id === 'c')!.marker).toEqual({ source: 'droid.compaction_state' });
    expect(fromLastCompaction(last.entries).ids).toEqual(['c', 'u3']);

    const none = importText(jsonl(...lines, compaction(), after));
    expect(none.issues).toEqual([]);
    expect(fromLastCompaction(none.entries).ids).toEqual(['c', 'u3']);
  });

  it('skips the tool results right after the anchor (their calls are in the summary) and keeps a results-and-text message whole', () => {
    const result = importText(jsonl(
      { type: 'session_start', id: 's' },
      { type: 'message', id: 'a1', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] } },
      { type: 'message', id: 'r1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } },
      { type: 'message', id: 'a2', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Read', input: {} }] } },
      { type: 'message', id: 'u2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'ok' }, { type: 'text', text: 'and this' }] } },
      { type: 'compaction_state', id: 'c1', summaryText: 'S1', anchorMessage: { id: 'a1', index: 0 } },
      { type: 'compaction_state', id: 'c2', summaryText: 'S2', anchorMessage: { id: 'a2', index: 2 } },
    ));
    expect(result.issues).toEqual([]);
    expect(result.entries.filter((entry) => entry.kind === 'compaction').map((entry) => entry.marker!.firstKeptEntryId)).toEqual(['a2', 'u2/results']);
  });

  it('reports an anchor naming no earlier message, or of another shape, by line; the marker then keeps only what follows it', () => {
    const result = importText(jsonl(
      { type: 'session_start', id: 's' },
      { type: 'message', id: 'u1', message: { role: 'user', content: [{ type: 'text', text: 'first' }] } },
      { type: 'message', id: 'a1', message: { role: 'assistant', content: [{ type: 'text', text: 'one' }] } },
      { type: 'compaction_state', id: 'c1', summaryText: 'S1', anchorMessage: { id: 'gone', index: 0 } },
      { type: 'compaction_state', id: 'c2', summaryText: 'S2', anchorMessage: 'u1' },
      { type: 'compaction_state', id: 'c3', summaryText: 'S3', anchorMessage: { index: 0 } },
      { type: 'message', id: 'u3', message: { role: 'user', content: [{ type: 'text', text: 'after' }] } },
    ));
    expect(result.issues.map(({ line, kind, message }) => `${line} ${kind} ${message}`)).toEqual([
      '4 malformed anchorMessage "gone" names no earlier message; the compaction keeps only what follows it',
      '5 malformed anchorMessage is string "u1", expected {"id", "index"} naming the last message the summary replaces; the compaction keeps only what follows it',
      '6 malformed anchorMessage is an object without a string "id" (keys: index), expected {"id", "index"} naming the last message the summary replaces; the compaction keeps only what follows it',
    ]);
    expect(result.entries.filter((entry) => entry.kind === 'compaction').map((entry) => entry.marker)).toEqual([1, 2, 3].map(() => ({ source: 'droid.compaction_state' })));
    expect(fromLastCompaction(result.entries).ids).toEqual(['c3', 'u3']);
  });
});

describe('Factory Droid messages shown to the user only', () => {
  it('makes no entry of a hook run (visibility user_only, Droid 0.226): counted as metadata, what follows it hangs under its parent', () => {
    const result = importText(jsonl(
      { type: 'session_start', id: 's-5', title: 'T', version: 2, cwd: '/w' },
      { type: 'message', id: 'u1', parentId: 's-5', timestamp: '2026-09-24T09:30:26.803Z', message: { role: 'user', content: [{ type: 'text', text: 'Hi' }] } },
      { type: 'message', id: 'hook-1', parentId: 'u1', timestamp: '2026-09-24T09:30:26.810Z', message: { role: 'user', content: [], visibility: 'user_only', hookEventName: 'UserPromptSubmit', hookResults: [] } },
      { type: 'message', id: 'a1', parentId: 'hook-1', timestamp: '2026-09-24T09:30:26.886Z', message: { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }], modelId: 'custom:Mock-0' } },
      { type: 'message', id: 'hook-2', parentId: 'a1', timestamp: '2026-09-24T09:30:27.000Z', message: { role: 'user', content: [], visibility: 'user_only', hookEventName: 'Stop' } },
      { type: 'message', id: 'hook-3', parentId: 'hook-2', timestamp: '2026-09-24T09:30:27.100Z', message: { role: 'user', content: [], visibility: 'user_only', hookEventName: 'Stop' } },
      { type: 'message', id: 'u2', parentId: 'hook-3', timestamp: '2026-09-24T09:31:00.000Z', message: { role: 'user', content: [{ type: 'text', text: 'Thanks' }] } },
    ));
    expect(result.issues).toEqual([]);
    expect(result.entries.map((entry) => `${entry.id}<${entry.parentId ?? 'root'}`)).toEqual(['u1<root', 'a1<u1', 'u2<a1']);
    expect(result.ignoredLines).toBe(4);
  });
});
