/**
 * Synthetic agent transcripts of any length for the planning benchmarks: turns of a user message,
 * tool iterations (an assistant call, sometimes two or three in parallel, then their results) and
 * a closing assistant reply. Deterministic (seeded), with per-entry counts precomputed so no
 * tokenizing is ever timed.
 */
import type { Spec } from '../src/core/compaction/testing.ts';
import { linkEntries, makeEntries } from '../src/core/compaction/testing.ts';
import type { Entry } from '../src/core/journal/entry.ts';
import { getEstimator } from '../src/core/tokens/counters.ts';
import { countEntry } from '../src/core/tokens/entry-tokens.ts';

export interface Synthetic {
  /** `length + extra` entries; the first `length` are the transcript, the rest are appended later. */
  entries: Entry[];
  /** chars/4 count of each entry (text lengths are chosen to give realistic counts). */
  counts: number[];
  length: number;
}

/** mulberry32: small, fast, good enough for shaping test data. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = 'the parser reads each line and returns a typed record so that later stages never see raw JSON; function export const import await return if else for while src/core/import/run.ts npm test -- --run passed failed 42 ms error warning'.split(' ');

/** One base text; entries take prefixes of it (V8 shares the characters, so 500k entries cost little). */
const BASE = (() => {
  const next = rng(7);
  let text = '';
  while (text.length < 10_000) text += WORDS[Math.floor(next() * WORDS.length)] + (next() < 0.1 ? '\n' : ' ');
  return text;
})();

/** A text of about `tokens` chars/4 tokens. */
function text(tokens: number): string {
  return BASE.slice(0, tokens * 4);
}

const TOOLS: ReadonlyArray<{ name: string; input: (i: number) => unknown }> = [
  { name: 'Read', input: (i) => ({ file_path: `/repo/src/module-${i % 97}.ts` }) },
  { name: 'Edit', input: (i) => ({ file_path: `/repo/src/module-${i % 97}.ts`, old_string: 'a', new_string: 'b' }) },
  { name: 'Bash', input: (i) => ({ command: `npm test -- src/module-${i % 97}.test.ts` }) },
  { name: 'Grep', input: (i) => ({ pattern: `symbol${i % 31}`, path: '/repo/src' }) },
];

/** Log-uniform integer in [lo, hi]: many small counts, a few large ones, as in real sessions. */
function logUniform(next: () => number, lo: number, hi: number): number {
  return Math.round(Math.exp(Math.log(lo) + next() * (Math.log(hi) - Math.log(lo))));
}

function turn(next: () => number, callCounter: { n: number }): Spec[] {
  const specs: Spec[] = [{ user: text(logUniform(next, 20, 400)) }];
  const iterations = 1 + Math.floor(next() * 12);
  for (let k = 0; k < iterations; k++) {
    const parallel = next() < 0.12 ? 2 + Math.floor(next() * 2) : 1;
    const calls = Array.from({ length: parallel }, () => {
      const i = callCounter.n++;
      const tool = TOOLS[i % TOOLS.length]!;
      return { id: `call_${i}`, name: tool.name, input: tool.input(i) };
    });
    specs.push({ assistant: next() < 0.3 ? '' : text(logUniform(next, 20, 600)), calls });
    for (const call of calls) specs.push({ tool: text(logUniform(next, 50, 2000)), callId: call.id, name: call.name });
  }
  specs.push({ assistant: text(logUniform(next, 40, 800)) });
  return specs;
}

/**
 * A transcript of exactly `length` entries (whole turns, topped up with user/assistant text so no
 * call is left without its result), followed by `extra` plain user/assistant entries for append tests.
 */
export function synthetic(length: number, extra = 0, seed = 1): Synthetic {
  const next = rng(seed);
  const callCounter = { n: 0 };
  const specs: Spec[] = [];
  while (specs.length < length) {
    const t = turn(next, callCounter);
    if (specs.length + t.length <= length) specs.push(...t);
    else while (specs.length < length) specs.push(specs.length % 2 === 0 ? { user: text(logUniform(next, 20, 400)) } : { assistant: text(logUniform(next, 40, 800)) });
  }
  for (let i = 0; i < extra; i++) specs.push(i % 2 === 0 ? { user: text(logUniform(next, 20, 400)) } : { assistant: text(logUniform(next, 40, 800)) });
  const entries = linkEntries(makeEntries(specs));
  const chars4 = getEstimator('chars4');
  const counts = entries.map((entry) => countEntry(entry, chars4).total);
  return { entries, counts, length };
}

/** Entries by role, for the printed description. */
export function roleMix(entries: readonly Entry[]): string {
  const by = new Map<string, number>();
  for (const entry of entries) by.set(entry.role, (by.get(entry.role) ?? 0) + 1);
  return [...by].map(([role, n]) => `${role} ${((100 * n) / entries.length).toFixed(0)}%`).join(', ');
}
