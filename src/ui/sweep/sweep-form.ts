/**
 * The Sweep tab's form as the core reads it: which of a strategy's options can be swept (numbers,
 * whole numbers, booleans, choices; never free text), a starting range for each, and the form's
 * rows as the `--vary` texts the CLI takes, so the page's points are `sweepPoints` of those texts.
 */
import type { OptionSpec } from '../../core/compaction/options.ts';
import type { VaryDraft } from '../../store/sweep-slice.ts';
import { configOptionSpecs } from '../../store/view/strategies.ts';

export type { VaryDraft };

/** Steps a new range starts with. */
export const DEFAULT_FORM_STEPS = 3;

/** The options of `strategy` a sweep can vary, in the strategy's order. */
export function sweepableSpecs(strategy: string): OptionSpec[] {
  return configOptionSpecs(strategy).filter((spec) => spec.type === 'integer' || spec.type === 'number' || spec.type === 'boolean' || spec.type === 'enum');
}

/** A row's start: off, from half the default to double it, inside the option's bounds. */
export function defaultVary(spec: OptionSpec): VaryDraft {
  if (typeof spec.default !== 'number') return { on: false, from: '', to: '', steps: '' };
  const base = spec.default;
  const clamp = (value: number) => Math.min(spec.max ?? Number.POSITIVE_INFINITY, Math.max(spec.min ?? Number.NEGATIVE_INFINITY, value));
  const round = (value: number) => (spec.type === 'integer' ? Math.round(value) : value);
  const from = round(clamp(base === 0 ? 0 : base / 2));
  const to = round(clamp(base === 0 ? (spec.max ?? 100) : base * 2));
  return { on: false, from: String(from), to: String(to), steps: String(from === to ? 1 : DEFAULT_FORM_STEPS) };
}

/** The rows of `strategy` with the user's edits over their starts. */
export function varyRows(strategy: string, edits: Readonly<Record<string, VaryDraft>>): Array<{ spec: OptionSpec; draft: VaryDraft }> {
  return sweepableSpecs(strategy).map((spec) => ({ spec, draft: edits[spec.name] ?? defaultVary(spec) }));
}

/** The `--vary` text of each swept row: `name=from..to:steps` for a number, the bare name for a boolean or choice. */
export function varyTexts(strategy: string, edits: Readonly<Record<string, VaryDraft>>): string[] {
  return varyRows(strategy, edits)
    .filter(({ draft }) => draft.on)
    .map(({ spec, draft }) => (spec.type === 'boolean' || spec.type === 'enum' ? spec.name : `${spec.name}=${draft.from.trim()}..${draft.to.trim()}:${draft.steps.trim()}`));
}
