/**
 * Simulate (F13, the seed's `context simulate --range a-b`): what folding a range of iterations of
 * a run into one block would cost and save — the range's tokens as the run shows it now, the block
 * a summarizer makes of it (offline extraction, or a model through the injected Summarizer), and the
 * whole context before and after. Nothing is changed: not the run, not its summary cache.
 */
import type { PromptLibrary } from '../compaction/prompts.ts';
import type { Summarizer } from '../compaction/summarizer.ts';
import type { Entry } from '../journal/entry.ts';
import { getEstimator, type TokenCounter } from '../tokens/counters.ts';
import { digestEntries, levelText } from './digest.ts';
import { blockRequest, modelDigest, ModelReplyError, parseModelReply, type ModelLevel } from './model-digest.ts';
import { modelLevelText } from './model-enrich.ts';
import type { BlockDigest, FoldRun, Level } from './types.ts';

export class FoldSimulateError extends Error {
  override name = 'FoldSimulateError';
}

export interface SimulateOptions {
  /** First and last iteration of the range (0-based, inclusive). */
  from: number;
  to: number;
  /** Level of the one block the range becomes: 2 summary (default), 3 chapter index, 4 phase line. */
  level?: ModelLevel;
  /** The model that writes the block (with `prompts`); absent: the offline extraction digest. */
  summarizer?: Summarizer;
  prompts?: PromptLibrary;
  /** Counts the block's text; use the run's counter. Default chars/4. */
  counter?: TokenCounter;
  signal?: AbortSignal;
}

export interface FoldSimulation {
  from: number;
  to: number;
  level: ModelLevel;
  /** 'offline' or the summarizer's id. */
  summarizer: string;
  /** Who wrote the block: the model, or the extraction (offline, or the model's reply was unusable twice: see `note`). */
  source: 'offline' | 'model';
  note?: string;
  /** What the block would show. */
  text: string;
  title: string;
  /** Iterations of the range at each level now, L0..L4. */
  levelsBefore: number[];
  /** Tokens of the range: its entries in full, as the run shows them now, as the one block (system text kept). */
  range: { original: number; before: number; after: number };
  /** Tokens of the whole context the run builds, now and with the range folded. */
  context: { before: number; after: number };
  /** Tokens saved, and as a share of the range now and of the context now (0..1; negative when folding costs more). */
  savings: { tokens: number; ofRange: number; ofContext: number };
}

/** "20-50" or "7" as an inclusive range of iterations. */
export function parseRange(text: string): { from: number; to: number } {
  const match = /^\s*(\d+)\s*(?:[-–]\s*(\d+))?\s*$/.exec(text);
  if (!match) throw new FoldSimulateError(`Expected a range of iterations such as "20-50" or "7"; got "${text}".`);
  const from = Number(match[1]);
  const to = match[2] !== undefined ? Number(match[2]) : from;
  if (to < from) throw new FoldSimulateError(`The range "${text}" ends before it starts; write the first iteration first ("${to}-${from}").`);
  return { from, to };
}

function entryTokens(counts: ArrayLike<number>, from: number, to: number, entries?: readonly Entry[]): number {
  let total = 0;
  for (let p = from; p <= to; p++) if (!entries || (entries[p]!.role === 'system' && entries[p]!.kind === 'message')) total += counts[p] ?? 0;
  return total;
}

/** The range's tokens as the run shows it now: a block the range cuts counts in proportion to the original tokens it covers. */
function shownTokens(run: FoldRun, counts: ArrayLike<number>, from: number, to: number): number {
  let total = 0;
  for (const block of run.blocks) {
    if (block.to < from || block.from > to) continue;
    if (block.from >= from && block.to <= to) {
      total += block.tokens.folded;
      continue;
    }
    const a = run.iterations[Math.max(from, block.from)]!.from;
    const b = run.iterations[Math.min(to, block.to)]!.to;
    const covered = entryTokens(counts, a, b);
    total += block.tokens.original > 0 ? (block.tokens.folded * covered) / block.tokens.original : 0;
  }
  return Math.round(total);
}

async function modelBlock(level: ModelLevel, slice: readonly Entry[], range: { from: number; to: number }, offline: BlockDigest, o: SimulateOptions): Promise<{ digest: BlockDigest; note?: string }> {
  if (!o.prompts) throw new FoldSimulateError('A model simulation needs the prompt files (prompts/fold-*.md).');
  const signal = o.signal ?? new AbortController().signal;
  const source = { id: `fold_iter${range.from}_to_${range.to}`, level, from: range.from, to: range.to, entries: slice };
  let problem: string | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const reply = await o.summarizer!.summarize(blockRequest(source, o.prompts, signal, problem ? { retryNote: problem } : {}));
    try {
      return { digest: modelDigest(level, parseModelReply(level, reply.text), offline) };
    } catch (error) {
      if (!(error instanceof ModelReplyError)) throw error;
      problem = error.message;
    }
  }
  return { digest: offline, note: `${problem} (also after a retry); the offline summary is shown instead.` };
}

/** What folding iterations `from..to` of `run` into one block would save (see the module comment). */
export async function simulateFold(run: FoldRun, entries: readonly Entry[], counts: ArrayLike<number>, o: SimulateOptions): Promise<FoldSimulation> {
  const n = run.iterations.length;
  const { from, to } = o;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from || to >= n) {
    throw new FoldSimulateError(n === 0 ? 'This run has no iterations to simulate.' : `Iterations ${from}-${to} are not in this run: pick a range within 0-${n - 1}.`);
  }
  if (counts.length !== entries.length) throw new FoldSimulateError(`Token counts cover ${counts.length} entries but the run has ${entries.length}; count the same entries.`);
  const level = o.level ?? 2;
  const counter = o.counter ?? getEstimator('chars4');
  const entryFrom = run.iterations[from]!.from;
  const entryTo = run.iterations[to]!.to;
  const slice = entries.slice(entryFrom, entryTo + 1);
  const offline = digestEntries(slice);
  const span = { from, to, entryFrom, entryTo };
  const made = o.summarizer ? await modelBlock(level, slice, span, offline, o) : { digest: offline };
  const byModel = o.summarizer !== undefined && made.note === undefined;
  const text = byModel ? modelLevelText(level, made.digest, span) : levelText(level as Level, made.digest, span);
  const levelsBefore = [0, 0, 0, 0, 0];
  for (let i = from; i <= to; i++) levelsBefore[run.levels[i]!]!++;
  const before = shownTokens(run, counts, from, to);
  const after = entryTokens(counts, entryFrom, entryTo, entries) + counter.count(text);
  const saved = before - after;
  const contextAfter = run.tokensAfter - before + after;
  return {
    from,
    to,
    level,
    summarizer: o.summarizer ? o.summarizer.id : 'offline',
    source: byModel ? 'model' : 'offline',
    ...(made.note ? { note: made.note } : {}),
    text,
    title: made.digest.title,
    levelsBefore,
    range: { original: entryTokens(counts, entryFrom, entryTo), before, after },
    context: { before: run.tokensAfter, after: contextAfter },
    savings: { tokens: saved, ofRange: before > 0 ? saved / before : 0, ofContext: run.tokensAfter > 0 ? saved / run.tokensAfter : 0 },
  };
}
