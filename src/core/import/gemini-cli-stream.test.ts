/** Gemini CLI JSONL streams: entries are built as lines arrive, only the newest messages stay open to be written again. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { linkReport } from '../journal/link.ts';
import { EntryBuilder } from './builder.ts';
import { createGeminiCliImporter, OPEN_MESSAGES } from './gemini-cli.ts';
import { importText } from './run.ts';

const HEADER = { sessionId: 's-1', projectHash: 'ab'.repeat(32), startTime: '2026-04-29T21:39:22.319Z', kind: 'main' };
const user = (i: number) => ({ id: `u${i}`, timestamp: '2026-04-29T21:39:33.155Z', type: 'user', content: [{ text: `request ${i}` }] });
const answer = (i: number, output = `file-${i}`) => ({
  id: `g${i}`, timestamp: '2026-04-29T21:39:35.125Z', type: 'gemini', content: `answer ${i}`, tokens: { input: 100 + i, output: 10, cached: 0, thoughts: 0, tool: 0, total: 110 + i },
  toolCalls: [{ id: `c${i}`, name: 'run_shell_command', args: { command: 'ls' }, status: 'success', result: [{ functionResponse: { id: `c${i}`, name: 'run_shell_command', response: { output } } }] }],
});
/** `turns` request/answer pairs: 2 × turns messages, 3 × turns entries. */
const turns = (count: number) => Array.from({ length: count }, (_, i) => [user(i), answer(i)]).flat();
const jsonl = (lines: unknown[]) => `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;

afterEach(() => vi.restoreAllMocks());

describe('Gemini CLI JSONL streaming', () => {
  it('builds the entries of all but the newest messages before the end of the file', () => {
    const push = vi.spyOn(EntryBuilder.prototype, 'push');
    const importer = createGeminiCliImporter();
    const lines = [HEADER, ...turns(OPEN_MESSAGES * 2)];
    lines.forEach((line, i) => importer.line(line as Record<string, unknown>, i + 1));
    const before = push.mock.calls.length;
    // 4,000 messages: at most 2 × OPEN_MESSAGES wait, so at least 2,000 messages (3,000 entries) are built.
    expect(before).toBeGreaterThanOrEqual((OPEN_MESSAGES * 4 - OPEN_MESSAGES * 2) * 1.5);
    const result = importer.finish();
    expect(push.mock.calls.length - before).toBeLessThanOrEqual(OPEN_MESSAGES * 2 * 1.5);
    expect(result.entries).toHaveLength(OPEN_MESSAGES * 2 * 3);
    // Read whole, as the page and the CLI do: every call keeps its result.
    expect(linkReport(importText(jsonl(lines)).entries)).toEqual({ toolCalls: OPEN_MESSAGES * 2, toolResults: OPEN_MESSAGES * 2, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('applies a recent copy of a message, reports one of a message whose entries are built and keeps the earlier copy', () => {
    const count = OPEN_MESSAGES * 2;
    const text = jsonl([HEADER, ...turns(count), answer(count - 1, 'rewritten late'), answer(0, 'rewritten too late')]);
    const result = importText(text);
    const byId = new Map(result.entries.map((entry) => [entry.id, entry]));
    const recent = byId.get(`g${count - 1}/c${count - 1}`)!;
    expect(recent.blocks).toMatchObject([{ type: 'tool_result', content: [{ type: 'text', text: 'rewritten late' }] }]);
    expect(byId.get(`g${count - 1}`)!.lineEnd).toBe(count * 2 + 2);
    expect(byId.get('g0/c0')!.blocks).toMatchObject([{ type: 'tool_result', content: [{ type: 'text', text: 'file-0' }] }]);
    expect(result.issues).toEqual([{ line: count * 2 + 3, kind: 'unsupported', message: `message "g0" is written again more than ${OPEN_MESSAGES} messages after it, when its entries are already built; the copy on line 3 is kept` }]);
  });

  it('rewinds to a message whose entries are already built: the next message branches from the one before it', () => {
    const count = OPEN_MESSAGES * 2;
    const result = importText(jsonl([HEADER, ...turns(count), { $rewindTo: 'u5' }, user(count)]));
    const byId = new Map(result.entries.map((entry) => [entry.id, entry]));
    expect(byId.get(`u${count}`)!.parentId).toBe('g4/c4');
    expect(byId.get('u5')!.parentId).toBe('g4/c4');
    expect(result.issues).toEqual([]);
  });
});
