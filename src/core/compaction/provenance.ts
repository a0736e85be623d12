/**
 * Provenance of what a model or an extraction made: who made it (model), how (method), over which
 * range, and a hash of exactly that source, so a stored result can be traced back and told apart
 * from one made from other entries or by another model. One module for every stored result: a
 * compaction run's summaries (journal entries, with summarizer and prompt version) and a fold view
 * or a model's fold summary (iterations, hashed as the fold hashes its blocks). Pure.
 */
import { fnv1a64, fnvFeed, fnvHex, fnvStart } from '../hash.ts';
import { promptVersion } from './run.ts';

/** Layout version of a summary's provenance record. */
export const PROVENANCE_VERSION = 1;

/** What every provenance record says, whatever it describes. */
export interface BaseProvenance {
  /** The model that made it, or `offline`. */
  model: string;
  /** How it was made, e.g. `compaction:pi/history`, `fold v1`, `fold-summary L3+self-check`. */
  method: string;
  /** What it covers, inclusive (0-based): journal indices for a summary, iterations for a fold. */
  range: { from: number; to: number };
  /** A hash of the source it was made from (FNV-1a 64). */
  sourceHash: string;
}

/**
 * Provenance of a stored fold view or of a model's fold summary: `model` names the summarizer and
 * model (`offline`, `remote:<base URL>|<model>`, `webllm:<model>`), `range` the iterations covered,
 * `sourceHash` is 16 hex digits as the fold computes its block hashes.
 */
export type FoldProvenance = BaseProvenance;

/** A fold view of the whole branch: all its iterations, one hash over the top-level blocks' hashes (they tile the branch). */
export function foldViewProvenance(model: string, version: number, totalIterations: number, topLevelBlockHashes: readonly string[]): FoldProvenance {
  return { model, method: `fold v${version}`, range: { from: 0, to: Math.max(0, totalIterations - 1) }, sourceHash: fnv1a64(topLevelBlockHashes.join('')) };
}

/** A model's summary of one folded block at `level` (`L2`..`L4`); `range` is -1..-1 when the block is not in the run. */
export function foldSummaryProvenance(model: string, level: string, selfCheck: boolean, range: { from: number; to: number }, blockHash: string): FoldProvenance {
  return { model, method: `fold-summary ${level}${selfCheck ? '+self-check' : ''}`, range: { from: range.from, to: range.to }, sourceHash: blockHash };
}

/** One entry as the source of a summary: its id, journal index, role and content blocks. */
export interface ProvenanceSource {
  id: string;
  /** Journal index (0-based). */
  index: number;
  role: string;
  blocks: readonly unknown[];
}

/** The provenance record of one summary of a compaction run. */
export interface Provenance extends BaseProvenance {
  v: typeof PROVENANCE_VERSION;
  /** Summarizer id: 'offline', 'openai', 'anthropic', 'webllm', 'hook', ... */
  summarizer: string;
  /** The model that answered, as it reported itself ('offline' for the offline summarizer). */
  model: string;
  /** How the text was made, e.g. 'compaction:pi/history'. */
  method: string;
  /** The prompt file used and its version (FNV-1a of its text, as in the run's prompt_versions). */
  prompt?: { id: string; version: string };
  /** The entries summarized: first and last journal index (inclusive), how many, first and last id. */
  range: { from: number; to: number; count: number; firstId: string; lastId: string };
  /** `fnv1a64:` + 16 hex digits over the source entries (ids, roles and blocks, in order). */
  sourceHash: string;
  /** When it was made (epoch ms). */
  at: number;
}

export interface ProvenanceInput {
  summarizer: string;
  model: string;
  method: string;
  /** The prompt file id and its text (its version is computed here). */
  prompt?: { id: string; text: string };
  /** The entries the summary covers, in order; at least one. */
  entries: readonly ProvenanceSource[];
  at: number;
}

export class ProvenanceError extends Error {
  override name = 'ProvenanceError';
}

/** The provenance record of one summary. Throws ProvenanceError when it covers no entry. */
export function buildProvenance(input: ProvenanceInput): Provenance {
  const first = input.entries[0];
  const last = input.entries.at(-1);
  if (!first || !last) throw new ProvenanceError(`A provenance record needs at least one source entry (method ${input.method}).`);
  let from = first.index;
  let to = first.index;
  for (const entry of input.entries) {
    from = Math.min(from, entry.index);
    to = Math.max(to, entry.index);
  }
  return {
    v: PROVENANCE_VERSION,
    summarizer: input.summarizer,
    model: input.model,
    method: input.method,
    ...(input.prompt ? { prompt: { id: input.prompt.id, version: promptVersion(input.prompt.text) } } : {}),
    range: { from, to, count: input.entries.length, firstId: first.id, lastId: last.id },
    sourceHash: sourceHash(input.entries),
    at: input.at,
  };
}

/** `fnv1a64:<hex>` over the entries' ids, roles and blocks (canonical JSON), separated so no two sources collide by concatenation. */
export function sourceHash(entries: readonly ProvenanceSource[]): string {
  let state = fnvStart();
  for (const entry of entries) {
    state = fnvFeed(state, `${entry.id}\u0000${entry.role}\u0000${JSON.stringify(entry.blocks)}\u0001`);
  }
  return `fnv1a64:${fnvHex(state)}`;
}
