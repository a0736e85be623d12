import { describe, expect, it } from 'vitest';
import { agentConfigFor, basisOf, isAgentStrategy } from './agent-config.ts';
import { basisSentence, oneLine, sessionsPhrase } from './basis.ts';
import { agentConfigLines } from './agent-config-text.ts';
import { STRATEGY_IDS } from '../strategies/index.ts';
import type { AgentConfigBasis } from './types.ts';

const BASIS: AgentConfigBasis = { sessions: ['before-compaction.jsonl', 'large-session.jsonl'], ratioToUncompacted: 0.4213, retention: 0.9125, overflowCalls: 0 };

describe('agentConfigFor', () => {
  it('is undefined for a strategy that is no agent\'s own compaction', () => {
    for (const id of STRATEGY_IDS.filter((id) => !isAgentStrategy(id))) {
      expect(agentConfigFor(id, {}, BASIS), id).toBeUndefined();
    }
    expect(agentConfigFor('no-such-strategy', {}, BASIS)).toBeUndefined();
  });

  it('hands pi back its compaction block: JSON with the point\'s values, the basis beside it, never inside', () => {
    const config = agentConfigFor('pi', { reserveTokens: 24_000, keepRecentTokens: 12_000, enabled: true }, BASIS)!;
    expect(config.agent).toBe('pi');
    expect(config.format).toBe('json');
    expect(config.file).toBe('~/.pi/agent/settings.json');
    expect(JSON.parse(config.text)).toEqual({ compaction: { enabled: true, reserveTokens: 24_000, keepRecentTokens: 12_000 } });
    expect(config.placement).toContain('.pi/settings.json');
    expect(config.basis).toBe(
      "Chosen by a Foldlab sweep on 2 sessions (before-compaction.jsonl, large-session.jsonl): tokens per task 42% of the uncompacted sessions', retention 0.91, no call over the window.",
    );
    expect(config.text).not.toContain('sessions');
    expect(config.limitation).toBeUndefined();
  });

  it('fills what the point leaves out with pi\'s defaults, reads CLI strings as pi\'s options do, and refuses a bad value', () => {
    const config = agentConfigFor('pi', { keepRecentTokens: '8000' }, BASIS)!;
    expect(JSON.parse(config.text)).toEqual({ compaction: { enabled: true, reserveTokens: 16_384, keepRecentTokens: 8000 } });
    expect(() => agentConfigFor('pi', { reserveTokens: -1 }, BASIS)).toThrow(/reserveTokens/);
  });

  it('says pi cannot take custom instructions from settings.json', () => {
    const config = agentConfigFor('pi', { customInstructions: 'Keep file paths' }, BASIS)!;
    expect(config.limitation).toMatch(/customInstructions is not a settings\.json key/);
    expect(JSON.parse(config.text).compaction).not.toHaveProperty('customInstructions');
  });
});

describe('the basis sentence', () => {
  it('names five sessions and counts the rest, and states overflowing calls and the window', () => {
    const sessions = Array.from({ length: 12 }, (_, i) => `s${i + 1}.jsonl`);
    expect(sessionsPhrase(sessions)).toBe('12 sessions (s1.jsonl, s2.jsonl, s3.jsonl, s4.jsonl, s5.jsonl and 7 more)');
    expect(sessionsPhrase(['one.jsonl'])).toBe('1 session (one.jsonl)');
    expect(basisSentence({ ...BASIS, overflowCalls: 3, ratioToUncompacted: 0.042, window: 200_000 })).toBe(
      "Chosen by a Foldlab sweep on 2 sessions (before-compaction.jsonl, large-session.jsonl) at a 200,000-token window: tokens per task 4.2% of the uncompacted sessions', retention 0.91, 3 calls over the window.",
    );
  });

  it('keeps a session name on one line and short', () => {
    expect(oneLine('a\nb\r\n\tc\u2028d')).toBe('a b c d');
    expect([...oneLine('x'.repeat(200))]).toHaveLength(60);
    expect(oneLine('\n')).toBe('(unnamed)');
  });

  it('is built from a sweep point and the sessions\' names', () => {
    const point = { options: {}, tokensPerTask: 9000, ratioToUncompacted: 0.5, retention: 0.8, probes: {} as never, overflowCalls: 1, compactions: 4 };
    expect(basisOf(point, ['a'], 128_000)).toEqual({ sessions: ['a'], ratioToUncompacted: 0.5, retention: 0.8, overflowCalls: 1, window: 128_000 });
    expect(basisOf(point, ['a'])).not.toHaveProperty('window');
  });
});

describe('the CLI lines of a block', () => {
  it('fence the block in its language, with its file, placement, basis and limitation', () => {
    const config = agentConfigFor('pi', { keepRecentTokens: 8000, customInstructions: 'paths' }, BASIS)!;
    const md = agentConfigLines(config, true);
    expect(md.slice(0, 3)).toEqual(['Use in pi: ~/.pi/agent/settings.json', '```json', config.text]);
    expect(md).toContain(config.placement);
    expect(md).toContain(config.basis);
    expect(md).toContain(`Limitation: ${config.limitation}`);
    expect(agentConfigLines(config, false)[1]).toBe(config.text);
  });

  it('write shell lines as sh and add the alternative form after the block', () => {
    const config = { ...agentConfigFor('pi', {}, BASIS)!, format: 'env' as const, alternative: { file: '~/.claude/settings.json', format: 'json' as const, text: '{}', placement: 'Or merge.' } };
    const md = agentConfigLines(config, true);
    expect(md[1]).toBe('```sh');
    expect(md.slice(-5)).toEqual(['Or in ~/.claude/settings.json:', '```json', '{}', '```', 'Or merge.']);
  });
});
