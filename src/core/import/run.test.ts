import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { ImportSession, importText } from './run.ts';
import { ImportFormatError, MAX_IMPORT_BYTES, UnreadableFileError } from './types.ts';
import { LineSplitter } from './lines.ts';

const PI_V3 = readFileSync('public/samples/pi/v3-small.jsonl', 'utf8');
const CLAUDE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'utf8');

describe('LineSplitter', () => {
  it('gives the same lines however the bytes are chunked (CRLF, multi-byte characters, bad bytes, long lines included)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'grapheme' }), fc.array(fc.nat(), { maxLength: 10 }), fc.integer({ min: 4, max: 400 }), (raw, cuts, cap) => {
        const text = new TextEncoder().encode(raw.replace(/x/g, '\r\n').replace(/y/g, '\n'));
        // 'z' becomes a byte that can never be UTF-8.
        for (let i = 0; i < text.length; i++) if (text[i] === 0x7a) text[i] = 0xff;
        const whole = new LineSplitter(cap);
        const expected = [...whole.push(text), ...whole.end()];
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const split = new LineSplitter(cap);
        const got = [];
        let at = 0;
        for (const point of [...points, text.length]) {
          got.push(...split.push(text.subarray(at, point)));
          at = point;
        }
        got.push(...split.end());
        expect(got).toEqual(expected);
      }),
    );
  });
});

describe('ImportSession', () => {
  it('detects each format from content', () => {
    expect(importText(PI_V3).format).toBe('pi');
    expect(importText(CLAUDE).format).toBe('claude-code');
    expect(importText('[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]').format).toBe('openai-chat');
    expect(importText('{"system":"s","messages":[{"role":"user","content":"hi"}]}').format).toBe('anthropic');
  });

  it('reports a malformed line by number and keeps every good line', () => {
    const lines = CLAUDE.split('\n');
    const good = importText(CLAUDE);
    lines[9] = '{"type":"user", broken';
    lines[20] = '[1,2,3]';
    const result = importText(lines.join('\n'));
    expect(result.issues.map((issue) => [issue.line, issue.kind])).toEqual([
      [10, 'malformed'],
      [21, 'malformed'],
    ]);
    expect(result.issues[0]?.message).toMatch(/not valid JSON/);
    expect(result.issues[1]?.message).toBe('expected a JSON object, got an array');
    expect(result.entries.length).toBeGreaterThan(good.entries.length - 3);
  });

  it('reports a truncated last line as truncated', () => {
    const text = PI_V3.trimEnd();
    const result = importText(text.slice(0, -10));
    const last = result.issues.at(-1);
    expect(last?.kind).toBe('truncated');
    expect(last?.line).toBe(text.split('\n').length);
    expect(last?.message).toMatch(/cut off/);
  });

  it('refuses an empty file', () => {
    expect(() => importText('', { fileName: 'a.jsonl' })).toThrow(UnreadableFileError);
    expect(() => importText('\n  \n', { fileName: 'a.jsonl' })).toThrow(/"a.jsonl" is empty/);
  });

  it('refuses a binary file', () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(() => importText(bytes, { fileName: 'x.png' })).toThrow(/"x.png" looks like a binary file/);
  });

  it('refuses a file over 500 MB before reading it', () => {
    expect(() => new ImportSession({ fileName: 'big.jsonl', size: MAX_IMPORT_BYTES + 1 })).toThrow(/up to 500 MB/);
  });

  it('names the shape of an unknown JSON document', () => {
    expect(() => importText('{"foo": 1, "bar": 2}', { fileName: 'x.json' })).toThrow(ImportFormatError);
    expect(() => importText('{"foo": 1, "bar": 2}', { fileName: 'x.json' })).toThrow(/unknown shape \(an object with keys "foo", "bar"\)/);
    expect(() => importText('[1, 2]')).toThrow(/an array of 2 number values/);
  });

  it('says which line of an invalid JSON document is wrong', () => {
    const error = (() => {
      try {
        importText('[\n{"role": "user", "content": "a"},\n{"role": }\n]', { fileName: 'x.json' });
      } catch (err) {
        return err as ImportFormatError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ImportFormatError);
    expect(error?.line).toBe(3);
  });

  it('names an unknown JSONL format', () => {
    expect(() => importText('{"kind":"x"}\n{"kind":"y"}\n', { fileName: 'x.jsonl' })).toThrow(/looks like JSONL but line 1 matches no known transcript format/);
    expect(() => importText('{"kind":"x"}\n{"kind":"y"}\n', { fileName: 'x.jsonl' })).toThrow(/expected Claude Code, Codex, pi, Gemini CLI, Cursor, GitHub Copilot CLI, Factory Droid or Kimi CLI session lines, or a JSON document \(messages, OpenHands events, a Gemini CLI chat, an opencode export, a Cline history\)/);
  });

  it('gives the same result for any chunking of bytes', () => {
    const bytes = new TextEncoder().encode(CLAUDE);
    const expected = importText(CLAUDE);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const session = new ImportSession();
        let at = 0;
        for (const point of [...points, bytes.length]) {
          session.push(bytes.subarray(at, point));
          at = point;
        }
        expect(session.finish()).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it('never throws anything but its own errors on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        try {
          importText(bytes);
        } catch (error) {
          expect(error instanceof ImportFormatError || error instanceof UnreadableFileError).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never throws anything but its own errors on arbitrary JSON lines', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.json(), fc.constant('{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use"}]},"uuid":"u"}')), { maxLength: 20 }), (lines) => {
        try {
          importText(lines.join('\n'));
        } catch (error) {
          expect(error instanceof ImportFormatError || error instanceof UnreadableFileError).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('locateJsonError', () => {
  it('finds the line and column of the first error, and nothing in valid JSON', async () => {
    const { locateJsonError } = await import('./json-error.ts');
    expect(locateJsonError('{"a": [1, 2, {"b": null}], "c": "x\\"y"}')).toBeUndefined();
    expect(locateJsonError('[\n  {"a": 1},\n  {"a" 2}\n]')).toMatchObject({ line: 3, column: 8, expected: '":" after a property name' });
    expect(locateJsonError('[1, 2')).toMatchObject({ line: 1, expected: '"," or "]" after an array element (the file ends early)' });
    expect(locateJsonError('{"a": 1} x')).toMatchObject({ expected: 'the end of the document' });
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(locateJsonError(text)).toBeUndefined();
      }),
    );
  });
});

describe('JSON documents', () => {
  it('give the same result for any chunking of a pretty-printed document', () => {
    const doc = JSON.stringify(
      [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'list files' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'a.ts\nb.ts' },
        { role: 'assistant', content: 'Two files: a.ts and b.ts.' },
      ],
      null,
      2,
    );
    const expected = importText(doc);
    expect(expected.entries).toHaveLength(5);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: doc.length }), { maxLength: 8 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const session = new ImportSession();
        let at = 0;
        for (const point of [...points, doc.length]) {
          session.push(doc.slice(at, point));
          at = point;
        }
        expect(session.finish()).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });
});
