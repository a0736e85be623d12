import { describe, expect, it } from 'vitest';
import { retention } from '../../core/replay/retention.ts';
import { outcomes, scores } from '../../core/replay/testing-result.ts';
import { defaultName, resolvePriceModel } from './model.ts';

describe('scores and defaults', () => {
  it('scores over every category; price model and names', () => {
    expect(retention(outcomes())).toEqual({ byCategory: scores(), all: { kept: 2, total: 4 } });
    expect(resolvePriceModel('', 'claude-200k')).toBe('claude-sonnet-4-5');
    expect(resolvePriceModel('', 'custom')).toBeUndefined();
    expect(resolvePriceModel('recorded', 'claude-200k')).toBeUndefined();
    expect(resolvePriceModel('gpt-4o', 'claude-200k')).toBe('gpt-4o');
    expect(defaultName(['pi', 'augment'], 50_000, 'chars/4')).toBe('pi vs augment · 50,000 chars/4');
    expect(defaultName(['pi'], 50_000, 'chars/4')).toBe('Replay: pi · 50,000 chars/4');
  });
});
