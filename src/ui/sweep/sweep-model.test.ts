import { describe, expect, it } from 'vitest';
import { threePointSweep as row } from '../../store/view/test-fixtures.ts';
import { sweepResultOf } from '../../store/view/sweep.ts';
import { chartColumns, durationText, nearestPoint, pointKind, progressText } from './sweep-model.ts';

describe('a saved sweep in the Sweep tab', () => {
  it('draws points that overflow apart from those that fit, the front, and the recommended point, sorted by ratio', () => {
    const result = sweepResultOf(row);
    expect(pointKind(result, 2)).toBe('overflows');
    const columns = chartColumns(result);
    expect(columns.order).toEqual([2, 0, 1]);
    expect(columns.xs).toEqual([0.2, 0.3, 0.5]);
    expect(columns.fits).toEqual([null, 0.5, 1]);
    expect(columns.overflows).toEqual([1, null, null]);
    // The point that overflows is dominated by every point that fits: the front is the other two.
    expect(result.pareto).toEqual([0, 1]);
    expect(columns.front).toEqual([null, 0.5, 1]);
    expect(columns.recommended).toEqual([null, null, 1]);
  });

  it('a click on the chart picks the nearest point within the radius, or none', () => {
    const positions = [{ index: 2, x: 10, y: 10 }, { index: 0, x: 30, y: 10 }, { index: 1, x: 100, y: 50 }];
    expect(nearestPoint(positions, 22, 12, 14)).toBe(0);
    expect(nearestPoint(positions, 12, 9, 14)).toBe(2);
    expect(nearestPoint(positions, 60, 30, 14)).toBeUndefined();
    expect(nearestPoint([], 0, 0, 14)).toBeUndefined();
  });

  it('says how far a sweep has come and what is left', () => {
    expect(progressText(undefined)).toBe('Starting…');
    expect(progressText({ phase: 'counting', done: 0, total: 2 })).toBe('Counting tokens: session 1 of 2');
    expect(progressText({ phase: 'replaying', tasksDone: 5, tasks: 16, pointsDone: 2, points: 8, etaMs: 12_400 })).toBe('2 of 8 points · 5 of 16 replays · about 12 s left');
    expect(progressText({ phase: 'replaying', tasksDone: 0, tasks: 16, pointsDone: 0, points: 8 })).toBe('0 of 8 points · 0 of 16 replays');
    expect(durationText(185_000)).toBe('3 min 5 s');
    expect(durationText(3_840_000)).toBe('1 h 4 min');
  });
});
