import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ImportSession, importText, megabytes } from './run.ts';
import { ImportFormatError, MAX_LINE_BYTES, MAX_LISTED_ISSUES } from './types.ts';

const PI_V3 = readFileSync('public/samples/pi/v3-small.jsonl');
const PI_LINES = PI_V3.toString('utf8').trimEnd().split('\n');
const encode = (text: string) => new TextEncoder().encode(text);

/** Bytes of the pi sample with line `no` (1-based) replaced by `bytes`. */
function withLine(no: number, bytes: Uint8Array): Uint8Array {
  const parts = PI_LINES.map((line, i) => (i === no - 1 ? bytes : encode(line)));
  const out: number[] = [];
  for (const part of parts) out.push(...part, 0x0a);
  return Uint8Array.from(out);
}

describe('invalid UTF-8', () => {
  it('reports the line by number and byte, imports every other line', () => {
    const good = importText(PI_V3);
    // The last line: no later line names it as parent, so its loss is the only issue.
    const line = encode(PI_LINES[8]!);
    line[30] = 0xc3; // a lead byte followed by ASCII: not a character
    const result = importText(withLine(9, line));
    expect(result.issues).toEqual([{ line: 9, kind: 'encoding', message: 'not valid UTF-8 (byte 31 of the line starts no valid character); it was skipped' }]);
    expect(result.entries.length).toBe(good.entries.length - 1);
    expect(result.entries.some((entry) => JSON.stringify(entry).includes('\ufffd'))).toBe(false);
  });

  it('refuses a JSON document that is not UTF-8 with the line', () => {
    const doc = encode('[\n{"role":"user","content":"hi"},\n{"role":"assistant","content":"x"}\n]');
    doc[35] = 0xff;
    expect(() => importText(doc)).toThrow(ImportFormatError);
    expect(() => importText(doc)).toThrow(/not valid UTF-8: line 3, byte \d+ of the line/);
  });

  it('keeps a byte-order mark only at the start of the file', () => {
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...PI_V3]);
    expect(importText(bom).issues).toEqual([]);
    const later = withLine(9, Uint8Array.from([0xef, 0xbb, 0xbf, ...encode(PI_LINES[8]!)]));
    expect(importText(later).issues.map((issue) => [issue.line, issue.kind])).toEqual([[9, 'malformed']]);
  });
});

describe('the line cap', () => {
  it('is 64 MiB by default', () => {
    expect(MAX_LINE_BYTES).toBe(64 * 1024 * 1024);
    expect([900, 4096, 5000, MAX_LINE_BYTES, 100 * 1024 * 1024 + 1].map(megabytes)).toEqual(['900 bytes', '4 KiB', '4.9 KiB', '64 MiB', '100.0 MiB']);
  });

  it('refuses an over-long line by number with its size, imports the rest, however it is chunked', () => {
    const long = encode(`{"type":"message","id":"big","parentId":null,"message":{"role":"user","content":"${'A'.repeat(5000)}"}}`);
    const bytes = withLine(9, long);
    for (const chunk of [7, 1000, bytes.length]) {
      const session = new ImportSession({ maxLineBytes: 4096 });
      for (let at = 0; at < bytes.length; at += chunk) session.push(bytes.subarray(at, at + chunk));
      const result = session.finish();
      expect(result.issues).toHaveLength(1);
      expect(result.issues[0]).toMatchObject({ line: 9, kind: 'too-long' });
      expect(result.issues[0]?.message).toBe(`the line is ${megabytes(long.length)}, over the 4 KiB limit for one line; it was skipped. If the file is one JSON document (OpenAI or Anthropic messages), choose that format instead of Auto`);
      expect(result.entries.length).toBe(importText(PI_V3).entries.length - 1);
    }
  });

  it('refuses a file whose only line is over the cap, naming the line', () => {
    const one = encode(`{"type":"user","message":{"role":"user","content":"${'x'.repeat(3000)}"}}`);
    expect(() => importText(one, { maxLineBytes: 1024 })).toThrow(/no line that could be read: line 1: the line is .* over the .* limit for one line/);
  });

  it('does not apply to a JSON document ("[" first, or a forced document format)', () => {
    const doc = `[{"role":"user","content":"${'y'.repeat(3000)}"},{"role":"assistant","content":"ok"}]`;
    expect(importText(doc, { maxLineBytes: 1024 }).entries).toHaveLength(2);
    const object = `{"messages":[{"role":"user","content":"${'y'.repeat(3000)}"}]}`;
    expect(importText(object, { maxLineBytes: 1024, format: 'openai-chat' }).entries).toHaveLength(1);
    expect(() => importText(object, { maxLineBytes: 1024 })).toThrow(/choose that format instead of Auto/);
  });
});

describe('counts that tell the truth', () => {
  it('counts every skipped line even past the listed 1000, and every blank line', () => {
    const lines = [...PI_LINES];
    const bad = Array.from({ length: 1500 }, (_, i) => `{broken ${i}`);
    const text = [lines[0], '', '   ', ...bad, '\t', ...lines.slice(1)].join('\n');
    const result = importText(text);
    expect(result.issueCount).toBe(1500);
    expect(result.issues).toHaveLength(MAX_LISTED_ISSUES);
    expect(result.issues[0]?.line).toBe(4);
    expect(result.issues.at(-1)?.line).toBe(1003);
    expect(result.blankLines).toBe(3);
  });
});

describe('a JSONL file that starts with a stray array', () => {
  it('is read as its lines, in Auto and with the format forced, the array reported as line 1', () => {
    const good = importText(PI_V3);
    const text = `[]\n${PI_V3.toString('utf8')}`;
    for (const result of [importText(text), importText(text, { format: 'pi' })]) {
      expect(result.format).toBe('pi');
      expect(result.entries.length).toBe(good.entries.length);
      expect(result.issues[0]).toMatchObject({ line: 1, kind: 'malformed' });
    }
  });
});
