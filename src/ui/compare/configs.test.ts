import { describe, expect, it } from 'vitest';
import { FOLD_OPTIONS } from '../../core/folding/options.ts';
import { configOptionSpecs, configTitle } from '../../core/replay/config-options.ts';
import { checkConfig, COMPARABLE_STRATEGIES, requestConfigs, uniqueLabels } from './configs.ts';

const row = (strategy: string, values: Record<string, string> = {}, label = '') => ({ key: `${strategy}-${label}`, strategy, label, values });

describe('compare configurations', () => {
  it('offer memory folding beside the strategies (not the custom plugin), with the Fold tab’s options', () => {
    expect(COMPARABLE_STRATEGIES).toContain('folding');
    expect(COMPARABLE_STRATEGIES).toContain('pi');
    expect(COMPARABLE_STRATEGIES).not.toContain('custom');
    expect(configTitle('folding')).toBe('Memory folding (L0-L4)');
    expect(configOptionSpecs('folding')).toBe(FOLD_OPTIONS);
  });

  it('check a folding row with the folding options parser, naming the option at fault', () => {
    expect(checkConfig(row('folding', { everyLow: '30' }))).toBeUndefined();
    expect(checkConfig(row('folding', { l0Distance: 'x' }))).toMatchObject({ option: 'l0Distance' });
    expect(checkConfig(row('folding', { keepTurns: '3' }))).toMatchObject({ option: 'keepTurns' });
    expect(checkConfig(row('pi', { keepRecentTokens: '-1' }))?.option).toBe('keepRecentTokens');
    expect(requestConfigs([row('folding', { everyLow: '30' }), row('pi')])).toEqual([{ strategy: 'folding', options: { everyLow: '30' } }, { strategy: 'pi', options: {} }]);
  });

  it('send a row\'s hooks choice and tell it apart from the same strategy without hooks', () => {
    const rows = [row('pi'), { ...row('pi'), hooks: true }];
    expect(uniqueLabels(rows)).toEqual(['pi', 'pi + hooks']);
    expect(requestConfigs(rows)).toEqual([{ strategy: 'pi', options: {} }, { strategy: 'pi', options: {}, hooks: true }]);
  });
});
