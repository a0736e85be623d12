// For any valid options of an agent's strategy and any basis, the handed-back block parses in its
// format and carries the point's values; the basis never breaks a comment line nor enters JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentConfigFor } from './agent-config.ts';
import type { AgentConfigBasis } from './types.ts';

const basisArb: fc.Arbitrary<AgentConfigBasis> = fc.record({
  sessions: fc.array(fc.string({ unit: 'binary', maxLength: 90 }), { maxLength: 9 }),
  ratioToUncompacted: fc.double({ min: 0, max: 2, noNaN: true }),
  retention: fc.double({ min: 0, max: 1, noNaN: true }),
  overflowCalls: fc.nat(10_000),
});

/** Every line of an `#`-commented format is a comment or not; a comment never spills onto a second line. */
function commentLines(text: string): string[] {
  return text.split('\n').filter((line) => line.startsWith('#'));
}

describe('pi blocks', () => {
  it('parse as JSON and carry the point\'s values', () => {
    fc.assert(fc.property(fc.boolean(), fc.integer({ min: 256, max: 1_000_000 }), fc.integer({ min: 0, max: 10_000_000 }), basisArb, (enabled, reserveTokens, keepRecentTokens, basis) => {
      const config = agentConfigFor('pi', { enabled, reserveTokens, keepRecentTokens }, basis)!;
      expect(JSON.parse(config.text)).toEqual({ compaction: { enabled, reserveTokens, keepRecentTokens } });
      expect(config.basis).not.toMatch(/[\n\r\u2028\u2029]/);
      expect(commentLines(config.text)).toEqual([]);
    }));
  });
});
