import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockText } from '../journal/entry.ts';
import { iterativeJson, jsonText } from '../journal/json-text.ts';
import { MAX_NESTING_DEPTH, nestingDepth } from './depth.ts';
import { DEEP_SAMPLE, nestedText, withDeepCall } from './deep-line.ts';
import { importText } from './run.ts';

const SAMPLE = readFileSync(DEEP_SAMPLE, 'utf8');

describe('deeply nested input', () => {
  it('a line nested 10,000 levels is refused with its number and depth; every other line is imported', () => {
    const good = importText(SAMPLE);
    const { text, line } = withDeepCall(SAMPLE, 10_000);
    const result = importText(text);
    // The line's object, its message, the content array, the tool_use block: 4 levels above the input.
    expect(result.issues).toEqual([{ line, kind: 'too-deep', message: 'nested 10,004 levels deep (Foldlab reads up to 1,000); the line was skipped' }]);
    expect(result.entries.length).toBe(good.entries.length);
  });

  it('a line at the limit is imported and its input shown and counted as its exact JSON', () => {
    const levels = MAX_NESTING_DEPTH - 4;
    const { text } = withDeepCall(SAMPLE, levels);
    const result = importText(text);
    expect(result.issues).toEqual([]);
    const call = result.entries.at(-1)!.blocks[0]!;
    expect(blockText(call)).toBe(`Bash(${nestedText(levels)})`);
  });

  it('a JSON document leaves out the message nested too deeply, names its line and depth, and keeps the rest chained', () => {
    const call = `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":${JSON.stringify(nestedText(10_000))}}}]}`;
    const text = `{"messages":[\n{"role":"user","content":"hi"},\n${call},\n{"role":"tool","tool_call_id":"c1","content":"ok"},\n{"role":"assistant","content":"done"}\n]}`;
    const result = importText(text);
    expect(result.format).toBe('openai-chat');
    expect(result.issues).toEqual([{ line: 3, kind: 'too-deep', message: expect.stringMatching(/^a message nested 10,00\d levels deep \(Foldlab reads up to 1,000\); it was skipped$/) as string }]);
    expect(result.issueCount).toBe(1);
    expect(result.entries.map((entry) => entry.index)).toEqual([0, 1, 2]);
    expect(result.entries[1]!.parentId).toBe(result.entries[0]!.id);
    expect(result.entries[2]!.parentId).toBe(result.entries[1]!.id);
  });

  it('measures depth without recursion', () => {
    expect(nestingDepth('x')).toBe(0);
    expect(nestingDepth({})).toBe(1);
    expect(nestingDepth([[], { a: [1] }])).toBe(3);
    expect(nestingDepth(JSON.parse(nestedText(100_000)))).toBe(100_000);
  });
});

describe('JSON text of any depth', () => {
  it('writes a value too deep for JSON.stringify as the same text, never [object Object]', () => {
    const text = `[${nestedText(20_000)},{"b":[1,null,true]}]`;
    const value: unknown = JSON.parse(text);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(jsonText(value)).toBe(text);
    expect(blockText({ type: 'tool_call', callId: 't', name: 'Deep', input: value })).toBe(`Deep(${text})`);
  });

  it('writes what JSON.stringify writes for any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(iterativeJson(value)).toBe(JSON.stringify(value));
    }));
    expect(iterativeJson({ a: undefined, b: [undefined, () => 1], c: 1 })).toBe(JSON.stringify({ a: undefined, b: [undefined, () => 1], c: 1 }));
    expect(iterativeJson([{}, [], ''])).toBe('[{},[],""]');
  });
});
