import { describe, expect, it } from 'vitest';
import { PI_OPTIONS } from '../strategies/pi/options.ts';
import { MAX_SWEEP_POINTS, parseVary, spaced, SweepInputError, sweepPoints } from './points.ts';

describe('parseVary', () => {
  it('spaces a range evenly, whole numbers for an integer option, each value once', () => {
    expect(parseVary('keepRecentTokens=2000..20000:4', PI_OPTIONS)).toEqual({ option: 'keepRecentTokens', values: [2000, 8000, 14000, 20000], range: { from: 2000, to: 20000, integer: true } });
    expect(parseVary('keepRecentTokens=0..10', PI_OPTIONS).values).toEqual([0, 3, 5, 8, 10]);
    expect(parseVary('keepRecentTokens=0..2:5', PI_OPTIONS).values).toEqual([0, 1, 2]);
    expect(parseVary('keepRecentTokens=1_000..1_000', PI_OPTIONS).values).toEqual([1000]);
    expect(spaced(0, 1, 3, false)).toEqual([0, 0.5, 1]);
  });

  it('enumerates a boolean or an enum by its bare name, and takes lists', () => {
    expect(parseVary('enabled', PI_OPTIONS).values).toEqual([false, true]);
    expect(parseVary('tokenCount', PI_OPTIONS).values).toEqual(['counter', 'pi-estimate']);
    expect(parseVary('reserveTokens=4096,16384,4096', PI_OPTIONS).values).toEqual([4096, 16384]);
  });

  it('refuses what cannot be swept, naming the option and its range', () => {
    const bad: Array<[string, string]> = [
      ['keepRecent=1..2', '--vary keepRecent=1..2: unknown option "keepRecent"; this strategy takes: enabled, reserveTokens, keepRecentTokens, customInstructions, tokenCount.'],
      ['reserveTokens=0..5000', '--vary reserveTokens=0..5000: Option reserveTokens must be a whole number from 256 to 1000000 (tokens); got "0".'],
      ['reserveTokens=9000..5000', '--vary reserveTokens=9000..5000: the range must go up: 9000 is above 5000.'],
      ['reserveTokens=1000..5000:0', '--vary reserveTokens=1000..5000:0: steps must be a whole number >= 1; got "0".'],
      ['reserveTokens=1000..5000:1', '--vary reserveTokens=1000..5000:1: one step cannot cover a range: give steps >= 2, or a single value.'],
      ['reserveTokens', '--vary reserveTokens: give reserveTokens a range, e.g. reserveTokens=256..10256:5, or a list of values a,b,c.'],
      ['enabled=0..1', '--vary enabled=0..1: enabled is true or false: list its values (enabled=a,b) or give its bare name for all of them.'],
      ['tokenCount=counter,guess', '--vary tokenCount=counter,guess: Option tokenCount must be one of counter, pi-estimate; got "guess".'],
      ['customInstructions=a,b', '--vary customInstructions=a,b: customInstructions is free text and cannot be swept; vary a number, boolean or choice option.'],
      ['reserveTokens=', '--vary reserveTokens=: expected a range from..to[:steps] or a list of values a,b,c.'],
    ];
    for (const [text, message] of bad) {
      expect(() => parseVary(text, PI_OPTIONS)).toThrow(SweepInputError);
      expect(() => parseVary(text, PI_OPTIONS)).toThrow(message);
    }
  });
});

describe('sweepPoints', () => {
  it('makes the grid of every combination with the full parsed options', () => {
    const points = sweepPoints({ strategy: 'pi', vary: ['reserveTokens=4000..8000:2', 'keepRecentTokens=1000..3000:3'] });
    expect(points.map((p) => [p.reserveTokens, p.keepRecentTokens])).toEqual([[4000, 1000], [4000, 2000], [4000, 3000], [8000, 1000], [8000, 2000], [8000, 3000]]);
    expect(points[0]).toEqual({ enabled: true, reserveTokens: 4000, keepRecentTokens: 1000, customInstructions: '', tokenCount: 'counter' });
  });

  it('draws N distinct random points from the ranges, the same for the same seed', () => {
    const args = { strategy: 'pi', vary: ['reserveTokens=1000..50000', 'keepRecentTokens=0..40000', 'enabled'], random: 30 };
    const a = sweepPoints(args);
    expect(a).toHaveLength(30);
    expect(new Set(a.map((p) => JSON.stringify(p))).size).toBe(30);
    for (const p of a) {
      expect(Number.isInteger(p.reserveTokens) && (p.reserveTokens as number) >= 1000 && (p.reserveTokens as number) <= 50000).toBe(true);
      expect(Number.isInteger(p.keepRecentTokens) && (p.keepRecentTokens as number) <= 40000).toBe(true);
    }
    expect(sweepPoints(args)).toEqual(a);
    expect(sweepPoints({ ...args, seed: 2 })).not.toEqual(a);
    // A space of two points holds two, however many are asked for.
    expect(sweepPoints({ strategy: 'pi', vary: ['enabled'], random: 10 })).toHaveLength(2);
  });

  it('refuses an unknown strategy, a repeated option, no --vary, a grid too large and a bad --random', () => {
    expect(() => sweepPoints({ strategy: 'nope', vary: ['a=1..2'] })).toThrow(/^Unknown strategy "nope": use one of augment, pi, /);
    expect(() => sweepPoints({ strategy: 'pi', vary: [] })).toThrow('A sweep needs at least one --vary option=from..to[:steps].');
    expect(() => sweepPoints({ strategy: 'pi', vary: ['reserveTokens=1000..2000', 'reserve_tokens=1000'] })).toThrow();
    expect(() => sweepPoints({ strategy: 'pi', vary: ['reserveTokens=1000..2000', 'reserveTokens=3000'] })).toThrow('--vary names reserveTokens twice: give it once, with all its values.');
    expect(() => sweepPoints({ strategy: 'pi', vary: ['reserveTokens=1000..200000:200', 'keepRecentTokens=0..100000:200'] })).toThrow(`The grid has 40,000 points; a sweep takes at most ${MAX_SWEEP_POINTS.toLocaleString('en-US')}: give fewer steps, or draw --random N of them.`);
    expect(() => sweepPoints({ strategy: 'pi', vary: ['enabled'], random: 0 })).toThrow('--random must be a whole number from 1 to 10000; got 0.');
  });

  it('sweeps memory folding with the replay window', () => {
    const points = sweepPoints({ strategy: 'folding', vary: ['contextWindow=20000..40000:2'], contextWindow: 100_000 });
    expect(points.map((p) => p.contextWindow)).toEqual([20000, 40000]);
  });
});
