/**
 * Explicit recall (F7, the seed's `query_history`): folded blocks ranked by how many query terms
 * their title, keywords and entities match, then by importance; and unfolding a block back to the
 * exact entries it covers (F12).
 */
import type { Entry } from '../journal/entry.ts';
import type { FoldedBlock, FoldRun } from './types.ts';

export interface QueryHit {
  block: FoldedBlock;
  /** Matched terms (an entity or keyword match counts double a title match). */
  score: number;
}

function terms(query: string): string[] {
  return [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}_./-]+/u).filter((term) => term.length >= 2))];
}

function scoreBlock(block: FoldedBlock, words: readonly string[]): number {
  const title = block.summary.title.toLowerCase();
  const keywords = block.keywords.map((k) => k.toLowerCase());
  const entities = block.entities.map((e) => e.toLowerCase());
  let score = 0;
  for (const word of words) {
    if (entities.some((e) => e === word || e.endsWith(`/${word}`) || e.includes(word))) score += 2;
    else if (keywords.includes(word)) score += 2;
    else if (title.includes(word)) score += 1;
  }
  return score;
}

function walk(blocks: readonly FoldedBlock[], out: FoldedBlock[] = []): FoldedBlock[] {
  for (const block of blocks) {
    out.push(block);
    walk(block.children, out);
  }
  return out;
}

/** Blocks (and their children) matching the query, best first. */
export function searchBlocks(blocks: readonly FoldedBlock[], query: string): QueryHit[] {
  const words = terms(query);
  if (words.length === 0) return [];
  return walk(blocks)
    .map((block) => ({ block, score: scoreBlock(block, words) }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || b.block.retrievability.importance - a.block.retrievability.importance || a.block.from - b.block.from || a.block.level - b.block.level);
}

/** `query_history(query)` over a finished run: every block, top-level and nested, by keyword/entity. */
export function queryHistory(run: Pick<FoldRun, 'blocks'>, query: string): QueryHit[] {
  return searchBlocks(run.blocks, query);
}

export class UnfoldError extends Error {
  override name = 'UnfoldError';
}

/** The original entries of a block's exact source range (the entries the run was folded from). */
export function unfold(block: Pick<FoldedBlock, 'id' | 'entryFrom' | 'entryTo'>, entries: readonly Entry[]): Entry[] {
  if (block.entryFrom < 0 || block.entryTo >= entries.length || block.entryTo < block.entryFrom) {
    throw new UnfoldError(`Block ${block.id} covers entries ${block.entryFrom}-${block.entryTo}, outside the ${entries.length} entries given; unfold it against the entries it was folded from.`);
  }
  return entries.slice(block.entryFrom, block.entryTo + 1);
}
