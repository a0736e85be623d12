// Codex's block: top-level config.toml keys that parse as TOML and hold the point's values, the
// basis as a comment, Codex's 90% cap and its fixed facts named when a point crosses them.
import fc from 'fast-check';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { agentConfigFor } from '../agent-config.ts';
import { getStrategy } from '../../strategies/index.ts';
import { BASIS, basisArb, commentsAreOneLine, optionsArb } from '../test-arbitraries.ts';

function defaultOf(strategy: string, option: string): number {
  return Number(getStrategy(strategy).options.find((spec) => spec.name === option)!.default);
}

describe('Codex', () => {
  it('hands back top-level config.toml keys with the basis as a comment', () => {
    const config = agentConfigFor('codex', { modelContextWindow: 272_000, modelAutoCompactTokenLimit: 180_000 }, BASIS)!;
    expect(config).toMatchObject({ agent: 'codex', format: 'toml', file: '~/.codex/config.toml' });
    expect(parseToml(config.text)).toEqual({ model_context_window: 272_000, model_auto_compact_token_limit: 180_000 });
    const comments = config.text.split('\n').filter((line) => line.startsWith('#'));
    expect(comments[0]).toBe(`# ${config.basis}`);
    expect(config.basis).toContain('session two with a break.jsonl');
    expect(config.placement).toMatch(/above its first \[table\]/);
    expect(config.limitation).toBeUndefined();
  });

  it('leaves a key at Codex\'s default out, and says so when both are', () => {
    expect(parseToml(agentConfigFor('codex', { modelAutoCompactTokenLimit: 150_000 }, BASIS)!.text)).toEqual({ model_auto_compact_token_limit: 150_000 });
    const defaults = agentConfigFor('codex', {}, BASIS)!;
    expect(parseToml(defaults.text)).toEqual({});
    expect(defaults.text).toMatch(/leave both keys unset/);
  });

  it('names the 90% cap when the limit is above it, on the point\'s window or else the sweep\'s', () => {
    expect(agentConfigFor('codex', { modelContextWindow: 100_000, modelAutoCompactTokenLimit: 95_000 }, BASIS)!.limitation)
      .toMatch(/caps model_auto_compact_token_limit at 90% of the window: with a 100,000-token window it compacts at 90,000 tokens, not 95,000/);
    expect(agentConfigFor('codex', { modelAutoCompactTokenLimit: 190_000 }, BASIS)!.limitation).toMatch(/compacts at 180,000 tokens/);
    expect(agentConfigFor('codex', { modelAutoCompactTokenLimit: 190_000 }, { ...BASIS, window: 0 })!.limitation).toBeUndefined();
  });

  it('says a moved fact of Codex (the carried user messages\' cap) cannot be set', () => {
    const cap = defaultOf('codex', 'userMessageTokenCap');
    const config = agentConfigFor('codex', { userMessageTokenCap: cap * 2 }, BASIS)!;
    expect(config.limitation).toContain(`userMessageTokenCap = ${(cap * 2).toLocaleString('en-US')} is not one of Codex's settings`);
    expect(parseToml(config.text)).toEqual({});
  });
});

describe('Codex blocks for any valid options', () => {
  it('Codex: TOML with model_context_window and model_auto_compact_token_limit (absent = 0, Codex\'s own)', () => {
    fc.assert(fc.property(optionsArb('codex'), basisArb, (options, basis) => {
      const config = agentConfigFor('codex', options, basis)!;
      commentsAreOneLine(config.text);
      const toml = parseToml(config.text) as Record<string, number>;
      expect(Object.keys(toml).every((key) => key === 'model_context_window' || key === 'model_auto_compact_token_limit')).toBe(true);
      expect(toml.model_context_window ?? 0).toBe(options.modelContextWindow);
      expect(toml.model_auto_compact_token_limit ?? 0).toBe(options.modelAutoCompactTokenLimit);
    }));
  });

});
