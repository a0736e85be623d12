// Claude Code's block: `export` lines and the settings.json env form that say the same, the
// override's limitation with what the user gets, reserves handed back as the nearest percentage.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentConfigFor } from '../agent-config.ts';
import { getStrategy } from '../../strategies/index.ts';
import { claudeCodeThreshold, parseClaudeCodeOptions } from '../../strategies/claude-code/options.ts';
import { BASIS, basisArb, commentsAreOneLine, exports, optionsArb } from '../test-arbitraries.ts';

describe('Claude Code', () => {
  // The strategy's own threshold at the basis's 200,000-token window with Claude Code's figures.
  const at = (options: Record<string, number | boolean> = {}) => claudeCodeThreshold(parseClaudeCodeOptions(options), 200_000);

  it('hands back export lines and the same as settings.json\'s env block', () => {
    const config = agentConfigFor('claude-code', { autoCompactPctOverride: 60, autoCompactWindow: 150_000 }, BASIS)!;
    expect(config).toMatchObject({ agent: 'claude-code', format: 'env' });
    expect(exports(config.text)).toEqual({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '60', CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' });
    expect(config.text.split('\n')[0]).toBe(`# ${config.basis}`);
    expect(config.alternative).toMatchObject({ format: 'json', file: '~/.claude/settings.json' });
    expect(JSON.parse(config.alternative!.text)).toEqual({ env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '60', CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' } });
    expect(config.limitation).toBeUndefined();
  });

  it('states the override\'s limitation when the percentage is above the default threshold, and what the user gets', () => {
    const standard = at().threshold;
    expect(at({ autoCompactPctOverride: 99 }).capped).toBe(true);
    const config = agentConfigFor('claude-code', { autoCompactPctOverride: 99 }, BASIS)!;
    expect(exports(config.text)).toEqual({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '99' });
    expect(config.limitation).toContain('can only lower the threshold');
    expect(config.limitation).toContain(`compacts at ${standard.toLocaleString('en-US')} tokens`);
    // Below the default threshold the override works as asked: no limitation.
    const lower = Math.floor(((standard - 1000) / at().effective) * 100);
    expect(at({ autoCompactPctOverride: lower }).capped).toBe(false);
    expect(agentConfigFor('claude-code', { autoCompactPctOverride: lower }, BASIS)!.limitation).toBeUndefined();
    // Without a known window the rule is stated without figures of a window.
    expect(agentConfigFor('claude-code', { autoCompactPctOverride: 99 }, { ...BASIS, window: 0 })!.limitation).toMatch(/can only lower the threshold: above the window − 33,000 tokens/);
  });

  it('caps the auto-compact window at the model\'s window', () => {
    const config = agentConfigFor('claude-code', { autoCompactWindow: 500_000 }, BASIS)!;
    expect(exports(config.text)).toEqual({ CLAUDE_CODE_AUTO_COMPACT_WINDOW: '500000' });
    expect(config.limitation).toContain('capped at the model\'s window: 500,000 counts as 200,000');
  });

  it('turns a larger reserve into the nearest percentage at or below its threshold, and refuses a smaller one', () => {
    const reserve = at().effective - at().threshold;
    const wanted = at({ reserveTokens: reserve + 40_000 }).threshold;
    const larger = agentConfigFor('claude-code', { reserveTokens: reserve + 40_000 }, BASIS)!;
    const pct = Number(exports(larger.text).CLAUDE_AUTOCOMPACT_PCT_OVERRIDE);
    expect(at({ autoCompactPctOverride: pct }).threshold).toBeLessThanOrEqual(wanted);
    expect(at({ autoCompactPctOverride: pct + 1 }).threshold).toBeGreaterThan(wanted);
    expect(larger.limitation).toMatch(/reserveTokens = [\d,]+ \(Claude Code: 13,000\) is not one of Claude Code's settings: CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=\d+ stands in/);
    const smaller = agentConfigFor('claude-code', { outputReserveTokens: 5_000 }, BASIS)!;
    expect(exports(smaller.text)).toEqual({});
    expect(smaller.limitation).toMatch(/no setting compacts later than Claude Code's own threshold: you get compaction at 167,000 tokens, not 182,000/);
  });

  it('turns automatic compaction off with DISABLE_AUTO_COMPACT', () => {
    const config = agentConfigFor('claude-code', { autoCompact: false }, BASIS)!;
    expect(exports(config.text)).toEqual({ DISABLE_AUTO_COMPACT: '1' });
  });

  it('names a moved figure Claude Code fixes (files re-attached after a summary) as not settable', () => {
    expect(agentConfigFor('claude-code', { restoreFiles: 9 }, BASIS)!.limitation).toMatch(/restoreFiles = 9 is not one of Claude Code's settings/);
  });

  it('at Claude Code\'s defaults sets nothing and says so', () => {
    const config = agentConfigFor('claude-code', {}, BASIS)!;
    expect(exports(config.text)).toEqual({});
    expect(config.text).toMatch(/set neither/);
    expect(JSON.parse(config.alternative!.text)).toEqual({ env: {} });
    expect(config.limitation).toBeUndefined();
  });
});

describe('Claude Code blocks for any valid options', () => {
  it('Claude Code: export lines and the settings.json env block say the same; at its own reserves they carry the point\'s variables', () => {
    const specs = getStrategy('claude-code').options;
    const own = (name: string) => specs.find((spec) => spec.name === name)!.default;
    fc.assert(fc.property(optionsArb('claude-code'), basisArb, (options, basis) => {
      const config = agentConfigFor('claude-code', options, basis)!;
      const vars: Record<string, string> = {};
      for (const line of config.text.split('\n')) {
        if (line.startsWith('# ')) continue;
        const match = /^export ([A-Z_]+)=(\d+)$/.exec(line);
        expect(match, line).not.toBeNull();
        vars[match![1]!] = match![2]!;
      }
      commentsAreOneLine(config.text);
      expect(JSON.parse(config.alternative!.text)).toEqual({ env: vars });
      expect(vars.DISABLE_AUTO_COMPACT).toBe(options.autoCompact ? undefined : '1');
      expect(Number(vars.CLAUDE_CODE_AUTO_COMPACT_WINDOW ?? 0)).toBe(options.autoCompactWindow);
      const ownReserves = options.reserveTokens === own('reserveTokens') && options.outputReserveTokens === own('outputReserveTokens');
      if (ownReserves || !options.autoCompact) expect(Number(vars.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE ?? 0)).toBe(options.autoCompactPctOverride);
      const pct = Number(vars.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE ?? 1);
      expect(pct >= 1 && pct <= 100).toBe(true);
    }));
  });

});
