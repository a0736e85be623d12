import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scoreAgainstGold, type GoldFile } from './gold-score.ts';
import type { ListedProbe } from './listing.ts';

const gold: GoldFile = {
  sample: 's.jsonl',
  conversation: 1,
  tasks: [{ line: 3, text: 'fix the parser' }],
  constraints: [{ line: 3, text: "don't touch the public API" }, { line: 9, text: 'use tabs', optional: true }],
  decisions: [{ lines: [5, 7], text: 'reuse the existing cache instead of a new one' }],
  artifacts: [{ path: 'src/parser.ts', kind: 'modified' }],
  errors: [{ line: 6, status: 'resolved', resolvedLine: 8, text: 'npm test failed' }],
  identifiers: [{ line: 3, value: 'b5bd68' }],
};

function probe(category: ListedProbe['category'], line: number, text: string, extra: Partial<ListedProbe> = {}): ListedProbe {
  return { conversation: 1, category, kind: 'x', text, entryId: `e${line}`, line, ...extra };
}

describe('scoring probes against a gold file', () => {
  it('matches each category by its own rule and counts optional items only when found', () => {
    const scores = scoreAgainstGold([
      probe('task', 3, 'Fix the parser please'),
      probe('task', 4, 'thanks'),
      probe('constraint', 3, "Don't touch the public API."),
      probe('constraint', 9, 'Use tabs.'),
      probe('decision', 7, 'I will reuse the existing cache instead of adding a new one.'),
      probe('decision', 7, 'Let me read the file.'),
      probe('artifact', 2, '/repo/src/parser.ts', { kind: 'modified' }),
      probe('artifact', 2, 'src/parser.ts', { kind: 'read' }),
      probe('error', 6, 'Bash: npm test → 1 failed', { status: 'open' }),
      probe('identifier', 3, '#b5bd68'),
      probe('identifier', 3, 'x', { conversation: 2 }),
    ], gold);
    expect(scores.task).toMatchObject({ probes: 2, correct: 1, gold: 1, found: 1, precision: 0.5, recall: 1 });
    expect(scores.constraint).toMatchObject({ probes: 2, correct: 2, gold: 1, found: 1 });
    expect(scores.decision).toMatchObject({ probes: 2, correct: 1, found: 1 });
    expect(scores.decision.wrong).toEqual(['line 7: Let me read the file.']);
    expect(scores.artifact).toMatchObject({ probes: 2, correct: 1, recall: 1 });
    // The right line with the wrong status is wrong and the gold error is missed.
    expect(scores.error).toMatchObject({ probes: 1, correct: 0, found: 0, precision: 0, recall: 0 });
    expect(scores.error.missed).toEqual(['line 6: resolved npm test failed']);
    expect(scores.identifier).toMatchObject({ probes: 1, correct: 1, recall: 1 });
  });

  it('reads every gold file of the samples: each names a sample that exists and labels every category', () => {
    const dir = 'src/core/probes/gold/';
    const files = readdirSync(dir).filter((name) => name.endsWith('.gold.json'));
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const name of files) {
      const file = JSON.parse(readFileSync(dir + name, 'utf8')) as GoldFile;
      expect(readFileSync(file.sample).length, name).toBeGreaterThan(0);
      for (const key of ['tasks', 'constraints', 'decisions', 'artifacts', 'errors', 'identifiers'] as const) expect(Array.isArray(file[key]), `${name} ${key}`).toBe(true);
      for (const error of file.errors) expect(error.status === 'open' || (error.status === 'resolved' && (error.resolvedLine ?? Infinity) > error.line!) || error.optional, `${name} line ${error.line}`).toBe(true);
    }
  });
});
