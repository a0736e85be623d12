import { describe, expect, it } from 'vitest';
import { sweepPoints } from '../../core/sweep/points.ts';
import { defaultVary, sweepableSpecs, varyTexts } from './sweep-form.ts';

describe('the Sweep tab form', () => {
  it('offers a strategy\'s number, boolean and choice options, never free text', () => {
    const names = sweepableSpecs('pi').map((spec) => spec.name);
    expect(names).toEqual(expect.arrayContaining(['enabled', 'reserveTokens', 'keepRecentTokens']));
    expect(names).not.toContain('customInstructions');
  });

  it('starts a number\'s range from half its default to double it, inside its bounds', () => {
    const keep = sweepableSpecs('pi').find((spec) => spec.name === 'keepRecentTokens')!;
    expect(defaultVary(keep)).toEqual({ on: false, from: String(keep.default as number / 2), to: String(keep.default as number * 2), steps: '3' });
    expect(defaultVary({ name: 'x', type: 'integer', default: 10, min: 8, max: 12, description: '' })).toEqual({ on: false, from: '8', to: '12', steps: '3' });
  });

  it('turns the swept rows into the CLI\'s --vary texts, whose points the core draws', () => {
    const texts = varyTexts('pi', { keepRecentTokens: { on: true, from: '4000', to: '12000', steps: '2' }, enabled: { on: true, from: '', to: '', steps: '' }, reserveTokens: { on: false, from: '1', to: '2', steps: '2' } });
    expect(texts).toEqual(['enabled', 'keepRecentTokens=4000..12000:2']);
    const points = sweepPoints({ strategy: 'pi', vary: texts });
    expect(points.map((p) => [p.enabled, p.keepRecentTokens])).toEqual([[false, 4000], [false, 12000], [true, 4000], [true, 12000]]);
  });
});
