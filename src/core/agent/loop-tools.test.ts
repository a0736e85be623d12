// query_history's answers (F7): only entries no longer verbatim in the context, ranked by the
// query words they contain, each excerpt and the whole answer bounded; and CODE_LAW.md lookup.
import { describe, expect, it } from 'vitest';
import { makeEntries } from '../compaction/testing.ts';
import type { ContextEntry } from '../compaction/types.ts';
import { CODE_LAW_MAX_BYTES, readCodeLaw } from './code-law.ts';
import { EXCERPT_CHARS, QUERY_MAX_CHARS, queryHistory } from './loop-tools.ts';
import { memoryFolder } from './testing.ts';

const entries = makeEntries([
  { user: 'set up the deploy' },
  { assistant: 'reading', calls: [{ id: 'c1', name: 'read', input: { path: 'deploy.md' } }] },
  { tool: `${'intro '.repeat(200)}the deploy key is needle-42 ${'outro '.repeat(200)}`, callId: 'c1', name: 'read' },
  { assistant: 'The deploy needs needle-42 and the staging host.' },
  { user: 'now the staging host' },
]);
const verbatim = (...indices: number[]): ContextEntry[] => indices.map((i) => ({ role: entries[i]!.role, entry: entries[i]!, origin: 'journal' }));

describe('query_history', () => {
  it('searches only what left the context, best match first, with bounded excerpts', () => {
    const out = queryHistory({ query: 'deploy needle-42' }, entries, verbatim(4));
    expect(out.ok).toBe(true);
    const blocks = out.text.split('\n\n[').slice(1);
    expect(blocks.map((block) => block.split(']')[0])).toEqual(['e2 tool result read', 'e3 assistant', 'e0 user', 'e1 assistant calling read']);
    for (const block of blocks) expect(block.length).toBeLessThanOrEqual(EXCERPT_CHARS + 40);
    expect(blocks[0]).toContain('needle-42');
    expect(queryHistory({ query: 'staging' }, entries, verbatim(4)).text).not.toContain('[e4');
  });

  it('says when nothing has left the context, when nothing matches, and refuses an empty query', () => {
    expect(queryHistory({ query: 'deploy' }, entries, verbatim(0, 1, 2, 3, 4)).text).toMatch(/^Nothing has been summarized/);
    expect(queryHistory({ query: 'kubernetes' }, entries, verbatim(4)).text).toMatch(/^No match for "kubernetes" in the 4 entries/);
    expect(queryHistory({ query: ' ' }, entries, []).ok).toBe(false);
    expect(queryHistory('deploy', entries, []).ok).toBe(false);
  });

  it('caps the number of entries and the whole answer', () => {
    const many = makeEntries(Array.from({ length: 40 }, (_, i) => ({ user: `match ${i} ${'word '.repeat(150)}` })));
    const out = queryHistory({ query: 'match', limit: 50 }, many, []);
    expect(out.text.length).toBeLessThanOrEqual(QUERY_MAX_CHARS + 200);
    expect(out.text).toMatch(/^40 of the 40 entries no longer in your context match "match"; 10 shown/);
    expect(out.text).toContain('more not shown');
    expect(queryHistory({ query: 'match', limit: 2 }, many, []).text).toContain('2 shown');
  });
});

describe('CODE_LAW.md', () => {
  it('is found whatever its case, only as a file at the root, and cut at its size limit', async () => {
    expect(await readCodeLaw(memoryFolder({ 'code_law.md': 'rules' }))).toEqual({ name: 'code_law.md', text: 'rules', truncated: false });
    expect(await readCodeLaw(memoryFolder({ 'docs/CODE_LAW.md': 'nested' }))).toBeUndefined();
    expect(await readCodeLaw(memoryFolder({ 'CODE_LAW.md/x': 'a directory' }))).toBeUndefined();
    expect(await readCodeLaw(memoryFolder({ 'README.md': 'no rules' }))).toBeUndefined();
    const long = await readCodeLaw(memoryFolder({ 'CODE_LAW.MD': 'r'.repeat(CODE_LAW_MAX_BYTES + 10) }));
    expect(long?.text.length).toBe(CODE_LAW_MAX_BYTES);
    expect(long?.truncated).toBe(true);
  });
});
