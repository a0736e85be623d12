/**
 * fast-check arbitraries for the strategies' property tests: random transcripts of turns whose
 * steps call tools, with the shapes that move strategy boundaries (mid-session system notes,
 * injected user messages, calls split one per assistant entry, calls without results, results
 * without calls, a pinned entry). Each test file says which of these shapes it wants.
 */
import fc from 'fast-check';
import { linkEntries, makeEntries, type Spec } from '../compaction/testing.ts';
import type { Entry } from '../journal/entry.ts';

/** A text of up to `max` repeats of one of a few characters of different widths (ASCII, CJK, a space, an emoji). */
export function textArb(max: number): fc.Arbitrary<string> {
  return fc.tuple(fc.nat({ max }), fc.constantFrom('x', '字', 'ab c', '😀')).map(([n, c]) => c.repeat(n));
}

export interface TranscriptShape {
  /** Longest text (user, assistant, result), in repeats; see `textArb`. */
  maxText: number;
  /** Most turns. */
  maxTurns: number;
  /** Fewest results (and so calls) per step. Default 0. */
  minResults?: number;
  /** Steps may put each call in its own assistant entry, as Claude Code does. Default false. */
  split?: boolean;
  /** Some turns' user messages are flagged injected (every third turn from the second). Default false. */
  injected?: boolean;
  /** One entry may be pinned. Default false. */
  pin?: boolean;
  /** The name and input of the `k`th call of a step, whose id is `id` and whose assistant text is `say`. */
  call: (id: string, k: number, say: string) => { name: string; input: unknown };
}

export interface GeneratedTranscript {
  entries: Entry[];
  /** The id of the pinned entry, with `pin`. */
  pinned: string | undefined;
}

interface Step {
  say: string;
  results: string[];
  split?: boolean;
  orphanCall: boolean;
  orphanResult: boolean;
}

interface Turn {
  user: string;
  injected?: boolean;
  steps: Step[];
  answer: string | undefined;
}

/** Linked entries of a random transcript of the given shape. */
export function generatedTranscripts(shape: TranscriptShape): fc.Arbitrary<GeneratedTranscript> {
  const text = textArb(shape.maxText);
  const step = fc.record({
    say: text,
    results: fc.array(text, { minLength: shape.minResults ?? 0, maxLength: 3 }),
    ...(shape.split ? { split: fc.boolean() } : {}),
    /** Leave the last result out: a call without a result already in the input. */
    orphanCall: fc.boolean(),
    /** A result whose call is not in the input. */
    orphanResult: fc.boolean(),
  }) as fc.Arbitrary<Step>;
  const turn = fc.record({
    user: text,
    ...(shape.injected ? { injected: fc.boolean() } : {}),
    steps: fc.array(step, { maxLength: 4 }),
    answer: fc.option(text, { nil: undefined }),
  }) as fc.Arbitrary<Turn>;
  return fc.record({
    system: fc.option(text, { nil: undefined }),
    midSystem: fc.boolean(),
    turns: fc.array(turn, { maxLength: shape.maxTurns }),
    ...(shape.pin ? { pin: fc.option(fc.nat(), { nil: undefined }) } : {}),
  }).map(({ system, midSystem, turns, pin }: { system: string | undefined; midSystem: boolean; turns: Turn[]; pin?: number | undefined }) => {
    const specs: Spec[] = [];
    const injected: number[] = [];
    let call = 0;
    if (system !== undefined) specs.push({ system });
    turns.forEach((t, ti) => {
      if (t.injected && ti % 3 === 1) injected.push(specs.length);
      specs.push({ user: t.user });
      if (midSystem && ti === 1) specs.push({ system: 'mid-session system note' });
      for (const s of t.steps) {
        const ids = s.results.map(() => `c${call++}`);
        const calls = ids.map((id, k) => ({ id, ...shape.call(id, k, s.say) }));
        if (s.split && calls.length > 1) calls.forEach((c, k) => specs.push({ assistant: k === 0 ? s.say : '', calls: [c] }));
        else specs.push({ assistant: s.say, calls });
        ids.forEach((id, k) => {
          if (!(s.orphanCall && k === ids.length - 1 && ids.length > 1)) specs.push({ tool: s.results[k]!, callId: id });
        });
        if (s.orphanResult) specs.push({ tool: 'stale', callId: `ghost${call++}` });
      }
      if (t.answer !== undefined) specs.push({ assistant: t.answer });
    });
    const entries = linkEntries(makeEntries(specs));
    for (const i of injected) entries[i]!.flags = { injected: true };
    const pinned = pin === undefined || entries.length === 0 ? undefined : entries[pin % entries.length]!.id;
    return { entries, pinned };
  });
}
