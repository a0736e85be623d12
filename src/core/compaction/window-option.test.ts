import { describe, expect, it } from 'vitest';
import { getStrategy } from '../strategies/index.ts';
import { withUserWindow } from './window-option.ts';

describe('withUserWindow (L7)', () => {
  const layered = getStrategy('layered');
  it('a strategy with its own window option follows the user’s window unless the option is set', () => {
    expect(withUserWindow(layered, { keepTurns: '4' }, 50_000)).toEqual({ keepTurns: '4', contextWindow: 50_000 });
    expect(withUserWindow(layered, { contextWindow: '128000' }, 50_000)).toEqual({ contextWindow: '128000' });
    expect(withUserWindow(layered, { context_window: '128000' }, 50_000)).toEqual({ context_window: '128000' });
    expect(withUserWindow(layered, { contextWindow: '' }, 50_000)).toEqual({ contextWindow: 50_000 });
    expect(layered.parse(withUserWindow(layered, {}, 50_000)).contextWindow).toBe(50_000);
  });
  it('leaves strategies without such an option alone', () => {
    expect(withUserWindow(getStrategy('pi'), { reserveTokens: '4096' }, 50_000)).toEqual({ reserveTokens: '4096' });
  });
});
