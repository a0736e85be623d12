/**
 * What the Compare tab derives for display, apart from React: series colours and dashes, the
 * height of the context lists, a percentage, the default price model and name, and the entry a
 * context reference stands for. Plain functions, tested in Node (model.test.ts).
 */
import type { Entry } from '../../core/journal/entry.ts';
import type { ContextRef } from '../../core/replay/types.ts';
import { priceFor } from '../../store/view/prices.ts';

/** Height of the context lists (a call's context, the final contexts), in px. Default 320. */
export const CONTEXT_LIST_HEIGHT = 320;

/** One colour per configuration (up to 8), distinguishable for the common colour-vision deficiencies. */
export const SERIES_COLORS = ['#2563eb', '#d97706', '#059669', '#dc2626', '#7c3aed', '#0891b2', '#be185d', '#4b5563'] as const;

/** A dash pattern per configuration too, so the curves differ without colour. */
export const SERIES_DASH: readonly number[][] = [[], [6, 3], [2, 2], [8, 3, 2, 3], [], [6, 3], [2, 2], [8, 3, 2, 3]];

export const colorOf = (index: number): string => SERIES_COLORS[index % SERIES_COLORS.length]!;

export function percent(kept: number, total: number): string {
  return total === 0 ? '—' : `${Math.round((kept / total) * 100)}%`;
}

/** The price model the request names: '' follows the gauge preset (else the transcript's recorded model). */
export function resolvePriceModel(choice: string, windowPreset: string): string | undefined {
  if (choice === 'recorded') return undefined;
  if (choice !== '') return choice;
  return priceFor(windowPreset)?.model;
}

/** "pi vs sliding-window · 50,000 chars/4". */
export function defaultName(labels: readonly string[], contextWindow: number, counterLabel: string): string {
  const head = labels.length === 1 ? `Replay: ${labels[0]}` : labels.join(' vs ');
  return `${head} · ${contextWindow.toLocaleString('en-US')} ${counterLabel}`.slice(0, 200);
}

/** The entry a context reference stands for, when it can be found. */
export function entryOfRef(ref: ContextRef, byId: ReadonlyMap<string, Entry>): Entry | undefined {
  return ref.origin === 'journal' ? byId.get(ref.entryId) : ref.entry;
}
