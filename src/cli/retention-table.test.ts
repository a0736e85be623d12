// The README's retention table is the one `npm run cli -- retention-table` prints (both come from
// retention-table.ts, measured by `eval`), and every row meets the floors the README states.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvalReport } from './eval.ts';
import { floorsText, keptShare, measureRetention, RETENTION_FLOORS, retentionTable } from './retention-table.ts';

let report: EvalReport;
beforeAll(async () => {
  report = await measureRetention();
}, 180_000);

/** The README's table: the lines from its header row to the first line that is not a table row. */
function readmeTable(): string {
  const lines = readFileSync('README.md', 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith('| sample | strategy | compactions |'));
  expect(start, 'the README has the retention table').toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

describe('the retention table', () => {
  it('in the README is the one measured now', () => {
    expect(readmeTable()).toBe(retentionTable(report));
  });

  it('keeps at least the floors the README states, in every row', () => {
    expect(readFileSync('README.md', 'utf8').replace(/\s+/g, ' ')).toContain(floorsText());
    for (const file of report.files) {
      expect(file.error).toBeUndefined();
      for (const strategy of file.strategies) {
        expect(strategy.error).toBeUndefined();
        expect(strategy.compactions, `${file.file} ${strategy.label} compacts`).toBeGreaterThan(0);
        for (const [category, floor] of Object.entries(RETENTION_FLOORS)) {
          const { kept, total } = strategy.probesAtCompaction[category as keyof typeof RETENTION_FLOORS];
          expect(keptShare(strategy, category as keyof typeof RETENTION_FLOORS), `${file.file} ${strategy.label} ${category} ${kept}/${total}`).toBeGreaterThanOrEqual(floor);
        }
      }
    }
  });

  it('says when a row no longer matches', () => {
    const changed = { ...report, files: report.files.map((file, i) => (i === 0 ? { ...file, calls: file.calls + 1 } : file)) };
    expect(retentionTable(changed)).not.toBe(readmeTable());
  });
});
