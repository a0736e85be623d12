/**
 * A summary's lines are normalized once and shared by every probe checked against it: checking many
 * artifact and error probes together against the same summaries gives, probe by probe, what a fresh
 * check of each probe alone gives.
 */
import { describe, expect, it } from 'vitest';
import type { Entry } from '../journal/entry.ts';
import type { Probe } from '../probes/types.ts';
import { ProbeChecker, type ContextPart } from './scoring.ts';

let n = 0;
function summaryPart(text: string): ContextPart {
  const entry: Entry = { id: `s${n++}`, index: 0, parentId: null, role: 'summary', kind: 'message', blocks: [{ type: 'text', text }], sourceType: 'summary', line: 1 };
  return { key: `m:summary:${text}`, text: () => text, origin: 'summary', entry };
}

const SUMMARIES = [
  '## Done\n- [x] Changed `src/app.ts` (3 edits)\n- Created src/new.ts\n\n## Errors\n- npm test: TypeError in parser.ts, fixed\n- build: error TS2339 still failing',
  '<modified-files>\nsrc/app.ts\nsrc/util.ts\n</modified-files>\n<read-files>\nsrc/new.ts\n</read-files>',
  '## Next Steps\n- [ ] We could modify src/util.ts\n- Deleted src/old.ts\nThe TypeError in parser.ts now passes.',
];

const PROBES: Probe[] = [
  ...['created', 'modified', 'deleted', 'read'].flatMap((kind) =>
    ['src/app.ts', 'src/new.ts', 'src/util.ts', 'src/old.ts'].map((path): Probe => ({ id: `a-${kind}-${path}`, text: path, entryId: 'e', entryIndex: 1, category: 'artifact', kind, needles: [[path]] }))),
  { id: 'e-open', text: 'TypeError', entryId: 'e', entryIndex: 2, category: 'error', kind: 'open', needles: [['typeerror', 'parser.ts']] },
  { id: 'e-resolved', text: 'TypeError', entryId: 'e', entryIndex: 2, category: 'error', kind: 'resolved', needles: [['typeerror', 'parser.ts']], resolvedAt: 5 },
  { id: 'e-ts', text: 'TS2339', entryId: 'e', entryIndex: 2, category: 'error', kind: 'open', needles: [['ts2339']] },
];

describe('summary lines shared by the probes of a check', () => {
  it('give each probe the outcome a check of it alone gives', () => {
    for (const at of [3, 10]) {
      const parts = SUMMARIES.map(summaryPart);
      const shared = new ProbeChecker();
      // Twice through the same checker: the second pass reads every summary's lines from the first.
      for (let pass = 0; pass < 2; pass++) {
        const together = shared.check(PROBES, () => parts, at).map((outcome) => outcome.kept);
        const alone = PROBES.map((probe) => new ProbeChecker().check([probe], () => SUMMARIES.map(summaryPart), at)[0]!.kept);
        expect(together).toEqual(alone);
      }
    }
    // The sample is not trivial: some probes are carried, some are not.
    const outcomes = new ProbeChecker().check(PROBES, () => SUMMARIES.map(summaryPart), 10).map((outcome) => outcome.kept);
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(2);
    expect(outcomes.filter((kept) => !kept).length).toBeGreaterThan(2);
  });
});
