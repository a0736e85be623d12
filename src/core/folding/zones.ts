/**
 * The context window's zones (F6) for a folding layout: static (system text), working (L0),
 * short-term (L1), long-term (L2-L4), retrieved and dynamic (recent files and errors), each with
 * its budget as a share of the window.
 */
import type { TokenCounter } from '../tokens/counters.ts';
import type { IterationInfo } from './moments.ts';
import type { FoldOptions } from './options.ts';
import type { FoldedBlock, ZoneUsage } from './types.ts';

/** Files listed in the dynamic slot. */
export const DYNAMIC_FILES = 10;

/** The dynamic slot at `now`: the files touched and errors seen within l1Distance ('' when there are none). */
export function dynamicText(infos: readonly IterationInfo[], now: number, o: Pick<FoldOptions, 'l1Distance'>): string {
  const files: string[] = [];
  let errors = 0;
  for (let i = now; i >= 0 && now - i <= o.l1Distance; i--) {
    for (const file of infos[i]!.files) if (!files.includes(file) && files.length < DYNAMIC_FILES) files.push(file);
    errors += infos[i]!.errors;
  }
  if (files.length === 0 && errors === 0) return '';
  return `Recent files: ${files.join(', ')}\nRecent errors: ${errors}`;
}

/** Tokens of the dynamic slot at `now`. */
export function dynamicTokens(infos: readonly IterationInfo[], now: number, o: Pick<FoldOptions, 'l1Distance'>, counter: TokenCounter): number {
  const text = dynamicText(infos, now, o);
  return text ? counter.count(text) : 0;
}

/** Every zone's tokens against its budget, for top-level blocks tiling the iterations. */
export function zoneUsage(blocks: readonly FoldedBlock[], infos: readonly IterationInfo[], o: FoldOptions, retrieved: number, dynamic: number): ZoneUsage[] {
  const w = o.contextWindow;
  const t = { static: 0, working: 0, short: 0, long: 0 };
  for (const block of blocks) {
    let system = 0;
    for (let i = block.from; i <= block.to; i++) system += infos[i]!.systemTokens;
    t.static += system;
    const own = block.tokens.folded - system;
    if (block.level === 0) t.working += own;
    else if (block.level === 1) t.short += own;
    else t.long += own;
  }
  return [
    { zone: 'static', tokens: t.static, budget: Math.round(o.staticShare * w) },
    { zone: 'working', tokens: t.working, budget: Math.round(o.workingShare * w) },
    { zone: 'short-term', tokens: t.short, budget: Math.round(o.shortTermShare * w) },
    { zone: 'long-term', tokens: t.long, budget: Math.round(o.longTermShare * w) },
    { zone: 'retrieved', tokens: retrieved, budget: Math.round(o.retrievedShare * w) },
    { zone: 'dynamic', tokens: dynamic, budget: Math.round(o.dynamicShare * w) },
  ];
}
