/**
 * Provenance of a summary: who made it (summarizer and model), how (method and prompt version),
 * from which entries (journal range) and a hash of exactly that source, so a stored summary can be
 * traced back and checked against the entries it claims to replace. Pure: used by compaction runs
 * and by fold summaries alike.
 */
import { fnvFeed, fnvHex, fnvStart } from '../folding/hash.ts';
import { promptVersion } from './run.ts';

/** Layout version of a provenance record. */
export const PROVENANCE_VERSION = 1;

/** One entry as the source of a summary: its id, journal index, role and content blocks. */
export interface ProvenanceSource {
  id: string;
  /** Journal index (0-based). */
  index: number;
  role: string;
  blocks: readonly unknown[];
}

export interface Provenance {
  v: typeof PROVENANCE_VERSION;
  /** Summarizer id: 'offline', 'openai', 'anthropic', 'webllm', 'hook', ... */
  summarizer: string;
  /** The model that answered, as it reported itself ('offline' for the offline summarizer). */
  model: string;
  /** How the text was made, e.g. 'compaction:pi/history' or 'fold:L2'. */
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
