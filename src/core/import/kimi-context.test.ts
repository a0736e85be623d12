import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importFile } from '../../cli/load.ts';
import { entryText } from '../journal/entry.ts';
import { KIMI_COMPACTION_PREFIX, kimiCompactionSummaries, kimiContextOrder, kimiContextSummary } from './kimi-context.ts';
import { withKimiFolder } from './kimi-folder.ts';
import type { ImportResult } from './types.ts';

const SAMPLE = 'public/samples/kimi/7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35';
const read = (name: string) => readFileSync(`${SAMPLE}/${name}`, 'utf8');
const context = (summary?: string) => [
  JSON.stringify({ role: '_system_prompt', content: 'You are Kimi CLI.' }),
  JSON.stringify({ role: '_checkpoint', id: 0 }),
  JSON.stringify({ role: 'user', content: summary === undefined ? [{ type: 'text', text: 'hi' }] : [{ type: 'text', text: KIMI_COMPACTION_PREFIX }, { type: 'text', text: summary }] }),
].join('\n');

describe('Kimi CLI compaction summaries', () => {
  it('orders the context files: rotated ones by number, the current one last; other names are none', () => {
    expect([kimiContextOrder('context_2.jsonl'), kimiContextOrder('context_10.jsonl'), kimiContextOrder('context.jsonl')]).toEqual([2, 10, Number.POSITIVE_INFINITY]);
    expect(kimiContextOrder('wire.jsonl')).toBeUndefined();
    expect(kimiContextOrder('subagents/a/context.jsonl')).toBeUndefined();
  });

  it('reads the summary the sample context starts with after its compaction; the rotated context before it has none', () => {
    expect(kimiContextSummary(read('context.jsonl'))).toMatch(/^## Task\nThe user asked for a `--dry-run` flag on scripts\/release\.py.*\n\n## Open\nNothing is pending\.$/s);
    expect(kimiContextSummary(read('context_1.jsonl'))).toBeUndefined();
    expect(kimiContextSummary('not json')).toBeUndefined();
  });

  it('writes the summary into the marker of the sample folder (wire lines 38-39), read by the command line', async () => {
    const result = await importFile(SAMPLE);
    const markers = result.entries.filter((entry) => entry.kind === 'compaction');
    expect(markers.map((entry) => entry.line)).toEqual([39]);
    expect(entryText(markers[0]!)).toBe(kimiContextSummary(read('context.jsonl')));
    expect(entryText(markers[0]!)).toContain('A subagent found the three callers');
  });

  it('gives the newest summary to the last marker and so on back; a marker older than the kept files stays empty', () => {
    const summaries = kimiCompactionSummaries([
      { path: 's/context.jsonl', text: context('third') },
      { path: 's/context_3.jsonl', text: context() },
      { path: 's/context_2.jsonl', text: context('second') },
      { path: 's/subagents/a/context.jsonl', text: context('not this one') },
    ], 's/');
    expect(summaries).toEqual(['second', 'third']);
    const marker = (line: number) => ({ id: `l${line}`, index: line, parentId: null, line, role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text: '' }], marker: { source: 'kimi.compaction' } });
    const wire = { format: 'kimi', entries: [marker(1), marker(2), marker(3)], issues: [], lines: 3, ignoredLines: 0, meta: {} } as unknown as ImportResult;
    const result = withKimiFolder(wire, { sessionId: 's', subagents: {}, compactions: summaries });
    expect(result.entries.map((entry) => entryText(entry))).toEqual(['', 'second', 'third']);
    expect(wire.entries.map((entry) => entryText(entry))).toEqual(['', '', '']);
  });
});
