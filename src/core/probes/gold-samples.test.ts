// The probe extractor against the hand-labelled gold of every sample (gold/README.md): precision
// at least 90% in every category, recall at least 85% for artifacts and errors, 75% for constraints
// and decisions, on each sample on its own.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importText } from '../import/run.ts';
import { scoreAgainstGold, type GoldFile } from './gold-score.ts';
import { listProbes, type ListedProbe } from './listing.ts';
import { PROBE_CATEGORIES } from './types.ts';

const DIR = 'src/core/probes/gold/';
const MIN_RECALL: Record<string, number> = { artifact: 0.85, error: 0.85, constraint: 0.75, decision: 0.75 };
const cache = new Map<string, ListedProbe[]>();

function probesOf(sample: string): ListedProbe[] {
  let probes = cache.get(sample);
  if (!probes) {
    probes = listProbes(importText(readFileSync(sample, 'utf8')).entries);
    cache.set(sample, probes);
  }
  return probes;
}

describe('probes against the hand-labelled gold of the samples', () => {
  for (const name of readdirSync(DIR).filter((file) => file.endsWith('.gold.json')).sort()) {
    it(name.replace('.gold.json', ''), () => {
      const gold = JSON.parse(readFileSync(DIR + name, 'utf8')) as GoldFile;
      const scores = scoreAgainstGold(probesOf(gold.sample), gold);
      for (const category of PROBE_CATEGORIES) {
        const score = scores[category];
        expect(score.precision, `${category} precision; wrong: ${score.wrong.join(' | ')}`).toBeGreaterThanOrEqual(0.9);
        const floor = MIN_RECALL[category];
        if (floor !== undefined) expect(score.recall, `${category} recall; missed: ${score.missed.join(' | ')}`).toBeGreaterThanOrEqual(floor);
      }
    });
  }
});
