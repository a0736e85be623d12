// The strategy form's check on the page: values that parse give no problem, a bad one names its option.
import { describe, expect, it } from 'vitest';
import { getStrategy, optionProblem, STRATEGY_IDS } from './strategies.ts';

describe('optionProblem', () => {
  it('is undefined for every strategy\'s defaults', () => {
    for (const id of STRATEGY_IDS) expect(optionProblem(id, {}), id).toBeUndefined();
  });

  it('names the option a value does not parse for, with the core\'s message', () => {
    const [spec] = getStrategy('pi').options;
    const problem = optionProblem('pi', { [spec!.name]: 'not a number' });
    expect(problem?.option).toBe(spec!.name);
    expect(problem?.message).toMatch(spec!.name);
  });
});
