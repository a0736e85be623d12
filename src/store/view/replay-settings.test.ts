// The unseen prefix field's checks: which entries the forms send, and what the field says under each.
import { describe, expect, it } from 'vitest';
import { unseenEstimateNote, validEstimate } from './replay-settings.ts';

describe('the unseen prefix estimate as the page checks it', () => {
  it('sends a preset or a positive number of tokens, never empty, 0 or a bad entry', () => {
    expect(validEstimate('claude-code')).toBe(true);
    expect(validEstimate('12_000')).toBe(true);
    expect(validEstimate('')).toBe(false);
    expect(validEstimate('  ')).toBe(false);
    expect(validEstimate('0')).toBe(false);
    expect(validEstimate('-5')).toBe(false);
    expect(validEstimate('lots')).toBe(false);
  });

  it("says the core's note on an entry (empty reads as 0) and its reason for refusing one", () => {
    expect(unseenEstimateNote('')).toEqual({ note: 'Set to 0: the context counts only the transcript.', invalid: false });
    expect(unseenEstimateNote('pi').note).toMatch(/^An estimate of 1,640 tokens not in the transcript .*the pi preset/);
    expect(unseenEstimateNote('2.5')).toEqual({ note: 'The unseen prefix must be a whole number of tokens >= 0 or one of the presets claude-code, pi; got "2.5".', invalid: true });
  });
});
