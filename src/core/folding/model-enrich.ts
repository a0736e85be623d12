/**
 * Model summaries for a folding run: after `foldRun` has decided the levels with extraction
 * digests, every block at L2-L4 (nested ones first, oldest first) gets its index from the injected
 * Summarizer through the prompts of model-digest.ts, optionally self-checked (F10). A reply that
 * cannot be used is asked for again once, then the extraction digest stays with a note. Texts,
 * folded tokens, the long-term zone and tokensAfter are recomputed; the run given is not changed.
 */
import type { PromptLibrary } from '../compaction/prompts.ts';
import { SummaryTimeoutError, type Summarizer, type SummaryRequest, type SummaryResponse } from '../compaction/summarizer.ts';
import type { Entry } from '../journal/entry.ts';
import { clipLine } from '../summarize/extract.ts';
import { getEstimator, type TokenCounter } from '../tokens/counters.ts';
import { digestEntries, levelText } from './digest.ts';
import {
  blockRequest, modelDigest, ModelReplyError, parseModelReply, parseSelfCheck, selfCheckRequest, withMissing, type BlockSource, type ModelLevel,
} from './model-digest.ts';
import { parseFoldOptions, type FoldOptions } from './options.ts';
import type { BlockDigest, FoldedBlock, FoldRun, Level } from './types.ts';
import { CancelledError, isCancelled } from '../cancel.ts';

/** Longest wait for one model reply, ms (as compaction's summaries). */
export const DEFAULT_MODEL_TIMEOUT_MS = 120_000;
/** Longest error text quoted in a note, characters. */
const NOTE_DETAIL_CHARS = 200;

/** A block's digest as the model made it (or the extraction digest it fell back to, with the note saying why). */
export interface ModelDigestEntry {
  digest: BlockDigest;
  source: 'model' | 'offline';
  note?: string;
  /** Facts the self-check added. */
  checkAdded?: number;
}

/** Model digests by `modelCacheKey`: keep it between runs so re-folding asks the model only for new blocks. */
export type ModelDigestCache = Map<string, ModelDigestEntry>;

export interface EnrichOptions {
  /** The prompt files (prompts/*.md by id). */
  prompts: PromptLibrary;
  /** Counts the new texts; use the run's counter. Default chars/4. */
  counter?: TokenCounter;
  signal?: AbortSignal;
  /** F10: ask the model what its summary misses and add it. Default false. */
  selfCheck?: boolean;
  /** Blocks done (made, reused or left as extracted) of all blocks at L2-L4. */
  onProgress?: (progress: { done: number; total: number }) => void;
  cache?: ModelDigestCache;
  /** The configured model name, part of the cache key. Default the summarizer's id. */
  model?: string;
  /** The folding options the run was made with (for the importance bar of L2 detail). */
  options?: Partial<FoldOptions> | Record<string, unknown>;
  /** Use only digests already in the cache; never call the model (the replay). Default false. */
  cachedOnly?: boolean;
  /** Per reply, ms. Default DEFAULT_MODEL_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Longest source text of a block, characters. Default DEFAULT_SOURCE_CHARS. */
  sourceChars?: number;
}

export interface EnrichResult {
  run: FoldRun;
  /** What went wrong, block by block, and what was used instead. */
  notes: string[];
  /** Blocks the model was asked about in this call, and blocks whose model digest came from the cache. */
  made: number;
  reused: number;
  /** Model calls, retries and self-checks included. */
  calls: number;
}

/** The user cancelled while the model was summarizing. */
export function foldSummariesCancelled(): CancelledError {
  return new CancelledError('Model summaries cancelled; the ones already made are kept for the next fold.');
}

export function modelCacheKey(sourceHash: string, level: Level, summarizerId: string, model: string, selfCheck = false): string {
  return `${sourceHash}|L${level}|${summarizerId}|${model}${selfCheck ? '|checked' : ''}`;
}

/** What a block shows at its level from a model digest: as `levelText`, the chapter with its summary, L4 the model's line. */
export function modelLevelText(level: ModelLevel, digest: BlockDigest, range: { from: number; to: number; entryFrom: number; entryTo: number }, important = false): string {
  if (level === 4) return levelText(4, { ...digest, title: digest.content }, range);
  if (level === 3) {
    const lines = levelText(3, digest, range).split('\n');
    lines.splice(1, 0, `Summary: ${digest.content}`);
    return lines.join('\n');
  }
  return levelText(2, digest, range, important);
}

function countLevels(blocks: readonly FoldedBlock[]): number {
  let n = 0;
  for (const block of blocks) n += (block.level >= 2 ? 1 : 0) + countLevels(block.children);
  return n;
}

function detail(error: unknown): string {
  return clipLine(error instanceof Error ? error.message : String(error), NOTE_DETAIL_CHARS);
}

/** Applies model digests to every block at L2-L4 of `run` (see the module comment). */
export async function enrichRun(run: FoldRun, entries: readonly Entry[], summarizer: Summarizer, o: EnrichOptions): Promise<EnrichResult> {
  const foldOptions = parseFoldOptions((o.options ?? {}) as Record<string, unknown>);
  const counter = o.counter ?? getEstimator('chars4');
  const cache = o.cache ?? new Map<string, ModelDigestEntry>();
  const model = o.model ?? summarizer.id;
  const outer = o.signal ?? new AbortController().signal;
  const timeoutMs = o.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS;
  const total = countLevels(run.blocks);
  const notes: string[] = [];
  const stats = { done: 0, made: 0, reused: 0, calls: 0, checked: 0, checkedWithMissing: 0, added: 0 };
  /** Set when the summarizer itself failed: later blocks keep their extraction digest. */
  let unavailable: string | undefined;

  const cancelled = () => foldSummariesCancelled();
  const call = async (request: SummaryRequest): Promise<SummaryResponse> => {
    stats.calls++;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new SummaryTimeoutError(timeoutMs)), timeoutMs);
    const signal = AbortSignal.any([outer, timeout.signal]);
    try {
      // Whatever the summarizer does with the signal, a timeout or cancel ends the wait.
      const aborted = new Promise<never>((_, reject) => {
        const fail = () => reject(outer.aborted ? cancelled() : new SummaryTimeoutError(timeoutMs));
        if (signal.aborted) fail();
        else signal.addEventListener('abort', fail, { once: true });
      });
      return await Promise.race([summarizer.summarize({ ...request, signal }), aborted]);
    } catch (error) {
      if (outer.aborted) throw cancelled();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };

  /** Asks for a block's digest; one retry on an unusable reply; undefined when the model failed (not cached). */
  const summarize = async (block: FoldedBlock, source: BlockSource, offline: BlockDigest, important: boolean): Promise<ModelDigestEntry | undefined> => {
    const level = source.level;
    let problem: string | undefined;
    let digest: BlockDigest | undefined;
    for (let attempt = 0; attempt < 2 && !digest; attempt++) {
      let reply: SummaryResponse;
      try {
        reply = await call(blockRequest(source, o.prompts, outer, { ...(o.sourceChars ? { sourceChars: o.sourceChars } : {}), ...(problem ? { retryNote: problem } : {}) }));
      } catch (error) {
        if (isCancelled(error)) throw error;
        unavailable = detail(error);
        notes.push(`${block.id}: the model failed (${unavailable}); this block and the ones not yet summarized keep the offline summary.`);
        return undefined;
      }
      try {
        digest = modelDigest(level, parseModelReply(level, reply.text), offline);
      } catch (error) {
        if (!(error instanceof ModelReplyError)) throw error;
        problem = error.message;
      }
    }
    if (!digest) return { digest: offline, source: 'offline', note: `${block.id}: ${problem} (also after a retry); used the offline summary.` };
    if (!o.selfCheck || level === 4) return { digest, source: 'model' };
    try {
      const shown = modelLevelText(level, digest, block, important);
      const check = parseSelfCheck((await call(selfCheckRequest(source, shown, o.prompts, outer, o.sourceChars ? { sourceChars: o.sourceChars } : {}))).text);
      const checked = withMissing(digest, check.missing);
      return { digest: checked.digest, source: 'model', checkAdded: checked.added };
    } catch (error) {
      if (isCancelled(error)) throw error;
      return { digest, source: 'model', checkAdded: 0, note: `${block.id}: the self-check failed (${detail(error)}); kept the summary as written.` };
    }
  };

  const visit = async (block: FoldedBlock): Promise<FoldedBlock> => {
    const children: FoldedBlock[] = [];
    for (const child of block.children) children.push(await visit(child));
    if (block.level < 2) return children.length ? { ...block, children } : block;
    if (outer.aborted) throw cancelled();
    const level = block.level as ModelLevel;
    const important = block.retrievability.importance > foldOptions.recallImportance;
    const key = modelCacheKey(block.sourceHash, level, summarizer.id, model, o.selfCheck);
    let entry = cache.get(key);
    if (entry) {
      stats.reused++;
    } else if (!o.cachedOnly && unavailable === undefined) {
      const slice = entries.slice(block.entryFrom, block.entryTo + 1);
      const offline = run.cache.get(block.sourceHash) ?? digestEntries(slice);
      const source: BlockSource = { id: block.id, level, from: block.from, to: block.to, entries: slice, ...(children.length ? { childTexts: children.map((c) => c.text) } : {}) };
      stats.made++;
      entry = await summarize(block, source, offline, important);
      if (entry) cache.set(key, entry);
    }
    stats.done++;
    o.onProgress?.({ done: stats.done, total });
    if (entry?.note) notes.push(entry.note);
    if (entry?.checkAdded !== undefined) {
      stats.checked++;
      if (entry.checkAdded > 0) {
        stats.checkedWithMissing++;
        stats.added += entry.checkAdded;
      }
    }
    if (!entry || entry.source === 'offline') return children.length ? { ...block, children } : block;
    const digest = entry.digest;
    const text = modelLevelText(level, digest, block, important);
    const folded = Math.max(0, block.tokens.folded - (block.text ? counter.count(block.text) : 0) + counter.count(text));
    return {
      ...block,
      summary: { title: digest.title, content: digest.content, outcome: digest.outcome },
      keywords: digest.keywords,
      entities: digest.entities,
      stateChanges: digest.stateChanges,
      text,
      tokens: { original: block.tokens.original, folded },
      children,
    };
  };

  o.onProgress?.({ done: 0, total });
  const blocks: FoldedBlock[] = [];
  for (const block of run.blocks) blocks.push(await visit(block));
  let delta = 0;
  for (const [i, block] of blocks.entries()) if (block.level >= 2) delta += block.tokens.folded - run.blocks[i]!.tokens.folded;
  if (o.selfCheck && stats.checked > 0) {
    notes.push(stats.added > 0
      ? `Self-check: ${stats.checkedWithMissing} of ${stats.checked} summaries missed facts; ${stats.added} added.`
      : `Self-check: none of ${stats.checked} summaries missed a fact.`);
  }
  return {
    run: {
      ...run,
      blocks,
      partitions: run.partitions.map((zone) => (zone.zone === 'long-term' ? { ...zone, tokens: zone.tokens + delta } : zone)),
      tokensAfter: run.tokensAfter + delta,
    },
    notes,
    made: stats.made,
    reused: stats.reused,
    calls: stats.calls,
  };
}
