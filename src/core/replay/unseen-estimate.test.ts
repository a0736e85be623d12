import { describe, expect, it } from 'vitest';
import { chooseUnseenPrefix, parseUnseenPrefix, UnseenPrefixError } from './unseen-estimate.ts';

describe('parseUnseenPrefix', () => {
  it('reads a number of tokens or an agent preset, always as an estimate', () => {
    expect(parseUnseenPrefix('12_000')).toMatchObject({ tokens: 12_000, source: 'estimate' });
    expect(parseUnseenPrefix('Claude-Code')).toMatchObject({ tokens: 17_400, source: 'estimate' });
    expect(parseUnseenPrefix('pi').note).toMatch(/^An estimate of 1,640 tokens .* the pi preset, from the first call of the pi sample session/);
    expect(parseUnseenPrefix('0')).toMatchObject({ tokens: 0, source: 'none' });
  });

  it('refuses anything else, naming the presets', () => {
    for (const bad of ['', '-5', '1.5', 'codex-ish']) expect(() => parseUnseenPrefix(bad)).toThrow(UnseenPrefixError);
    expect(() => parseUnseenPrefix('lots')).toThrow('The unseen prefix must be a whole number of tokens >= 0 or one of the presets claude-code, pi; got "lots".');
  });
});

describe('chooseUnseenPrefix', () => {
  const recorded = { tokens: 18_094, source: 'recorded' as const, calls: 105, call: 1, note: 'recorded' };
  const none = { tokens: 0, source: 'none' as const, calls: 0, note: 'none' };
  it('takes the entered prefix over the recorded one and says what was recorded', () => {
    expect(chooseUnseenPrefix(recorded)).toBe(recorded);
    expect(chooseUnseenPrefix(none, parseUnseenPrefix('500'))).toMatchObject({ tokens: 500, source: 'estimate' });
    expect(chooseUnseenPrefix(recorded, parseUnseenPrefix('500')).note).toContain('The recorded usage gives 18,094.');
  });
});
