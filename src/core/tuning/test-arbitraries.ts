/**
 * Test helpers for the handed-back blocks: any valid options of a strategy drawn from its own
 * option specs (each kept at its default or drawn, so defaults are hit often), any basis (session
 * names with control characters and line breaks included), and a reader of shell blocks.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { OptionSpec } from '../compaction/options.ts';
import type { Options } from '../compaction/strategy.ts';
import { getStrategy } from '../strategies/index.ts';
import type { AgentConfigBasis } from './types.ts';

/** Any value an option accepts, by its spec. */
function valueArb(spec: OptionSpec): fc.Arbitrary<number | boolean | string> {
  switch (spec.type) {
    case 'boolean': return fc.boolean();
    case 'enum': return fc.constantFrom(...(spec.values ?? [String(spec.default)]));
    case 'integer': return fc.integer({ min: spec.min ?? 0, max: spec.max ?? 10_000_000 });
    case 'number': return fc.double({ min: spec.min ?? 0, max: spec.max ?? 1e6, noNaN: true });
    default: return fc.string({ maxLength: 40 });
  }
}

/** Options of a strategy, each at its default or drawn from its spec's range. */
export function optionsArb(strategy: string): fc.Arbitrary<Options> {
  const specs = getStrategy(strategy).options;
  return fc.record(Object.fromEntries(specs.map((spec) => [spec.name, fc.oneof(fc.constant(spec.default), valueArb(spec))])));
}

export const basisArb: fc.Arbitrary<AgentConfigBasis> = fc.record({
  sessions: fc.array(fc.string({ unit: 'binary', maxLength: 90 }), { maxLength: 7 }),
  ratioToUncompacted: fc.double({ min: 0, max: 2, noNaN: true }),
  retention: fc.double({ min: 0, max: 1, noNaN: true }),
  overflowCalls: fc.nat(1000),
  window: fc.oneof(fc.constant(0), fc.integer({ min: 8_000, max: 2_000_000 })),
});

/** A fixed basis: two sessions (one name with a line break), a 200,000-token window. */
export const BASIS: AgentConfigBasis = { sessions: ['codex-rollout.jsonl', 'session two\nwith a break.jsonl'], ratioToUncompacted: 0.38, retention: 0.87, overflowCalls: 0, window: 200_000 };

/** The `export` lines of a shell block as name -> value; every other line must be a one-line `#` comment. */
export function exports(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.startsWith('# ')) {
      expect(line).not.toMatch(/[\r\u2028\u2029]/);
      continue;
    }
    const match = /^export ([A-Z_][A-Z0-9_]*)=([^\s'"`$;&|]+)$/.exec(line);
    expect(match, `not a comment nor an export line: ${JSON.stringify(line)}`).not.toBeNull();
    out[match![1]!] = match![2]!;
  }
  return out;
}

/** `#` comment lines never spill onto a second line. */
export function commentsAreOneLine(text: string): void {
  for (const line of text.split('\n')) if (line.startsWith('#')) expect(line).not.toMatch(/[\r\u2028\u2029]/);
}
