/**
 * Deterministic synthetic timeline data for benchmarks and demos: older iterations are folded
 * deeper, folded regions become nested blocks, with a sprinkling of key moments and a few blocks
 * recalled into the retrieved zone near the end.
 */
import type { KeyMoment, Level, RecallTrigger, TimelineBlock, TimelineData, TimelineRetrieval } from './types.ts';

/** mulberry32: a tiny seeded PRNG so the same size always yields the same data. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOPICS = ['Read files', 'Run tests', 'Fix type errors', 'Refactor parser', 'Search docs', 'Edit config', 'Debug failing build', 'Write migration'];
const KINDS: KeyMoment['kind'][] = ['error', 'first-success', 'state-change', 'bookmark'];
const TRIGGERS: RecallTrigger[] = ['recall-implicit', 'recall-explicit', 'recall-error'];
/** Recalled blocks fade this many iterations after their recall (the folding default). */
const FADE_AFTER = 10;

function maxLevel(levels: Uint8Array, from: number, to: number): Level {
  let level = 0;
  for (let i = from; i <= to; i++) level = Math.max(level, levels[i] ?? 0);
  return level as Level;
}

export function syntheticTimeline(iterations: number): TimelineData {
  const random = prng(0x5eed ^ iterations);
  const n = Math.max(0, Math.floor(iterations));
  const levels = new Uint8Array(n);
  // Age 1 = oldest: the oldest iterations are folded to L4, the newest are kept full (L0).
  for (let i = 0; i < n; i++) {
    const age = 1 - i / Math.max(1, n);
    const jitter = random() < 0.03 ? (random() < 0.5 ? -1 : 1) : 0;
    levels[i] = Math.max(0, Math.min(4, Math.floor(age * 5) + jitter));
  }

  const blocks: TimelineBlock[] = [];
  const folded = Math.floor(n * 0.85); // the last 15% is unfolded
  const topSpan = Math.max(2, Math.floor(n / 60));
  let from = 0;
  let serial = 0;
  const add = (start: number, end: number, depth: number) => {
    const topic = TOPICS[Math.floor(random() * TOPICS.length)] ?? 'Work';
    const id = `b${serial++}`;
    const tokens = (end - start + 1) * (40 + Math.floor(random() * 400));
    blocks.push({ id, level: maxLevel(levels, start, end), from: start, to: end, title: `${topic} (${id})`, depth, tokens, importance: Math.round(random() * 100) / 100 });
  };
  const split = (start: number, end: number, depth: number) => {
    add(start, end, depth);
    const length = end - start + 1;
    if (depth >= 2 || length < 8) return;
    const parts = 2 + Math.floor(random() * 3);
    let childStart = start;
    for (let k = 0; k < parts && childStart <= end; k++) {
      const childEnd = k === parts - 1 ? end : Math.min(end, childStart + Math.max(1, Math.floor((length / parts) * (0.6 + random() * 0.8))) - 1);
      if (random() < 0.7) split(childStart, childEnd, depth + 1);
      childStart = childEnd + 1;
    }
  };
  while (from < folded) {
    const to = Math.min(folded - 1, from + Math.floor(topSpan * (0.5 + random())) - 1);
    split(from, to, 0);
    from = to + 1 + Math.floor(random() * 3);
  }

  const moments: KeyMoment[] = [];
  const momentCount = Math.min(200, Math.ceil(n / 500));
  for (let k = 0; k < momentCount && n > 0; k++) {
    const kind = KINDS[Math.floor(random() * KINDS.length)] ?? 'bookmark';
    moments.push({ iteration: Math.floor(random() * n), kind, label: `${kind} #${k + 1}` });
  }
  moments.sort((a, b) => a.iteration - b.iteration);

  // A few recalls within the last FADE_AFTER iterations (so all are still in the zone), one of
  // them a child of another recalled block: their spans overlap and take two lanes.
  const retrieved: TimelineRetrieval[] = [];
  const tops = blocks.filter((b) => b.depth === 0);
  for (let k = 0; k < Math.min(4, tops.length) && n > 0; k++) {
    const top = tops[Math.floor(random() * tops.length)];
    if (!top || retrieved.some((r) => r.blockId === top.id)) continue;
    const since = Math.max(0, n - 1 - Math.floor(random() * FADE_AFTER));
    const recall = (b: TimelineBlock, trigger: RecallTrigger): TimelineRetrieval => ({
      blockId: b.id, from: b.from, to: b.to, level: random() < 0.7 ? 0 : 1, since, until: since + FADE_AFTER, trigger,
    });
    retrieved.push(recall(top, TRIGGERS[k % TRIGGERS.length] ?? 'recall-implicit'));
    const child = k === 0 ? blocks.find((b) => b.depth === 1 && b.from >= top.from && b.to <= top.to) : undefined;
    if (child) retrieved.push(recall(child, 'recall-explicit'));
  }

  return {
    iterations: n,
    levels,
    blocks,
    moments,
    retrieved,
    partitions: [
      { zone: 'static', tokens: 6_000, budget: 8_000 },
      { zone: 'working', tokens: 42_000, budget: 64_000 },
      { zone: 'short-term', tokens: 30_000, budget: 32_000 },
      { zone: 'long-term', tokens: 20_000, budget: 16_000 },
      { zone: 'retrieved', tokens: 4_000, budget: 8_000 },
      { zone: 'dynamic', tokens: 1_500, budget: 4_000 },
    ],
  };
}
