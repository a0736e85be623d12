// Per-entry cost is bounded: megabyte entries without whitespace (or made of path separators, hex,
// dots, quotes) extract and match quickly. Results are asserted, never the time; the run takes
// well under a second for all of them (measured in the report).
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries } from '../compaction/testing.ts';
import { extractProbes } from './extract.ts';
import { matchProbe, prepareContext } from './match.ts';

const MB = 1_000_000;

function journal(text: string) {
  return linkEntries(
    makeEntries([
      { user: text },
      {
        assistant: text,
        calls: [
          { id: 'c1', name: 'Bash', input: { command: text } },
          { id: 'c2', name: 'Write', input: { file_path: text, content: text } },
          { id: 'c3', name: 'apply_patch', input: `*** Begin Patch\n*** Add File: ${text}` },
        ],
      },
      { tool: text, callId: 'c1', error: true },
      { tool: text, callId: 'c2' },
    ]),
  );
}

describe('bounds', () => {
  it('extracts from a 1 MB entry without whitespace', () => {
    const text = 'x'.repeat(MB);
    const probes = extractProbes(journal(text));
    // Over-long paths and tokens are skipped: only the failed command remains, as an open error.
    expect(probes.map((probe) => `${probe.category}/${probe.kind}`)).toEqual(['error/open']);
    expect(probes.every((probe) => probe.text.length <= 200)).toBe(true);
  });

  it('extracts from a 1 MB entry of "a/" repeated', () => {
    const probes = extractProbes(journal('a/'.repeat(MB / 2)));
    // The single 1 MB "word" is no content word (over 64 characters): no task either.
    expect(probes.map((probe) => `${probe.category}/${probe.kind}`)).toEqual(['error/open']);
    expect(probes.every((probe) => probe.needles.flat().every((needle) => needle.length <= 500))).toBe(true);
  });

  it('extracts from 1 MB of hex, dotted digits and quotes', () => {
    for (const text of ['0123456789abcdef'.repeat(MB / 16), '1.'.repeat(MB / 2), '"'.repeat(MB), "'a' ".repeat(MB / 4)]) {
      const probes = extractProbes(journal(text));
      expect(probes.length).toBeLessThanOrEqual(60);
    }
  });

  it('prepares and matches against a 1 MB context', () => {
    const text = `${'a/'.repeat(MB / 2)} needle-here`;
    const context = prepareContext(text);
    expect(matchProbe({ id: 'x', category: 'identifier', kind: 'value', text: 'x', entryId: 'e', entryIndex: 0, needles: [['needle-here']] }, context)).toEqual({ kept: true, span: expect.stringContaining('needle-here') });
  });
});
