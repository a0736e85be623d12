// A saved sweep as the page shows it: scored by the core, rescored with other weights, exported as the CLI prints it.
import { describe, expect, it } from 'vitest';
import { assembleSweep } from '../../core/sweep/assemble.ts';
import { DEFAULT_RETENTION_WEIGHTS } from '../../core/sweep/score.ts';
import { sweepTable } from '../../core/sweep/table.ts';
import { sweepCsvText, sweepJson, sweepPlanSize, sweepResultOf } from './sweep.ts';
import { threePointSweep as row } from './test-fixtures.ts';

describe('a saved sweep on the page', () => {
  it('is scored by the core with the sessions as named in the row, and exports the CLI\'s JSON and CSV', () => {
    const result = sweepResultOf(row);
    expect(result).toEqual(assembleSweep({ strategy: 'pi', points: row.points, sessions: ['first session', 'second session'], figures: row.figures, weights: row.weights, contextWindow: 50_000 }));
    expect(result.recommended).toBe(1);
    expect(result.agentConfig?.agent).toBe('pi');
    expect(Object.keys(JSON.parse(sweepJson(result)) as object)).toEqual(['strategy', 'points', 'pareto', 'recommended', 'reason', 'agentConfig']);
    const csv = sweepCsvText(result).trimEnd().split('\n');
    expect(csv[0]).toBe(sweepTable(result).header.join(','));
    expect(csv).toHaveLength(4);
  });

  it('other weights score it again without replaying', () => {
    const result = sweepResultOf(row, { ...DEFAULT_RETENTION_WEIGHTS, task: 0 });
    // No other category has probes: nothing was lost under those weights, every point keeps all.
    expect(result.points.map((p) => p.retention)).toEqual([1, 1, 1]);
    expect(result.recommended).toBe(0);
  });

});

describe('the size of a sweep the form plans', () => {
  it('is the number of points the core draws from the ranges, grid or random', () => {
    expect(sweepPlanSize({ strategy: 'pi', vary: ['keepRecentTokens=4000..12000:3', 'enabled'] })).toEqual({ points: 6 });
    expect(sweepPlanSize({ strategy: 'pi', vary: ['keepRecentTokens=4000..12000:3'], random: 2 })).toEqual({ points: 2 });
  });

  it('is the core\'s reason when the ranges make no sweep', () => {
    expect(sweepPlanSize({ strategy: 'pi', vary: [] })).toEqual({ error: 'A sweep needs at least one --vary option=from..to[:steps].' });
    expect(sweepPlanSize({ strategy: 'pi', vary: ['keepRecentTokens=9000..1000:2'] })).toEqual({ error: '--vary keepRecentTokens=9000..1000:2: the range must go up: 9000 is above 1000.' });
    expect(sweepPlanSize({ strategy: 'pi', vary: ['keepRecentTokens=1..2:2'], random: 0 })).toEqual({ error: '--random must be a whole number from 1 to 10000; got 0.' });
  });
});
