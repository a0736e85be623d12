// opencode's block: the compaction object of opencode.json, as JSON with the point's values; the
// model's own figures and opencode's fixed pruning figures named, never written.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentConfigFor } from '../agent-config.ts';
import { BASIS, basisArb, optionsArb } from '../test-arbitraries.ts';

describe('opencode', () => {
  it('hands back its compaction block as JSON with the basis beside it, a key at opencode\'s default left out', () => {
    const config = agentConfigFor('opencode', { auto: true, prune: false, reserved: 30_000, tailTurns: 4, preserveRecentTokens: 8000 }, BASIS)!;
    expect(config).toMatchObject({ agent: 'opencode', format: 'json', file: '~/.config/opencode/opencode.json' });
    expect(JSON.parse(config.text)).toEqual({ compaction: { auto: true, prune: false, reserved: 30_000, tail_turns: 4, preserve_recent_tokens: 8000 } });
    expect(config.text).not.toContain('Foldlab');
    expect(config.basis).toContain('2 sessions');
    expect(config.limitation).toBeUndefined();
    expect(JSON.parse(agentConfigFor('opencode', {}, BASIS)!.text)).toEqual({ compaction: { auto: true, prune: true } });
  });

  it('names the model\'s figures and opencode\'s fixed pruning figures when the point moved them', () => {
    const config = agentConfigFor('opencode', { contextWindow: 128_000, maxOutputTokens: 8000, pruneProtectTokens: 10_000 }, BASIS)!;
    expect(config.limitation).toContain('a 128,000-token window (limit.context) and an output cap of 8,000 tokens (limit.output');
    expect(config.limitation).toContain("pruneProtectTokens = 10,000 is not one of opencode's settings");
    expect(JSON.parse(config.text)).toEqual({ compaction: { auto: true, prune: true } });
  });
});

describe('opencode blocks for any valid options', () => {
  it('parse as JSON and give the point\'s settings back (absent = opencode\'s default)', () => {
    fc.assert(fc.property(optionsArb('opencode'), basisArb, (options, basis) => {
      const { compaction } = JSON.parse(agentConfigFor('opencode', options, basis)!.text) as { compaction: Record<string, unknown> };
      expect(compaction.auto).toBe(options.auto);
      expect(compaction.prune).toBe(options.prune);
      expect(compaction.reserved ?? 0).toBe(options.reserved);
      expect(compaction.tail_turns ?? 2).toBe(options.tailTurns);
      expect(compaction.preserve_recent_tokens ?? 0).toBe(options.preserveRecentTokens);
    }));
  });
});
