/**
 * How a sweep point is scored, the one place each of its figures is computed (the CLI, the page's
 * chart and table, and the JSON and CSV exports all read them from here):
 * - tokens per task: each session is one task; a session's figure is its replay's
 *   `totals.tokensPerTask` (every call's context plus the summarizer's input and output), and the
 *   point's is the mean over the sessions;
 * - ratio to uncompacted: the point's tokens summed over the sessions divided by the same sessions'
 *   uncompacted run (every call sent everything before it), by eval's `ratioToUncompacted`;
 * - retention: each probe category's kept share (the probes whose source left the verbatim context,
 *   checked against the final context: eval's `retention`), averaged with the category weights over
 *   the categories that have probes; 1 when no probe left the context (nothing was lost).
 */
import { PROBE_CATEGORIES, type ProbeCategory } from '../probes/types.ts';
import { ratioToUncompacted } from '../replay/recorded-run.ts';
import { retention } from '../replay/retention.ts';
import type { CompareOutput } from '../replay/compare.ts';
import { emptyScores } from '../replay/scoring.ts';
import { SweepInputError } from './points.ts';
import type { RetentionWeights, SweepOptions, SweepPoint, SweepProbes } from './types.ts';

/**
 * Default weights: the task and the user's constraints count most (only the user can give them
 * again), then open errors and the files touched (the agent can find them again, at a cost), then
 * exact identifiers and the agent's own decisions.
 */
export const DEFAULT_RETENTION_WEIGHTS: Readonly<RetentionWeights> = { task: 3, constraint: 3, error: 2, artifact: 2, identifier: 1, decision: 1 };

/** One point's figures on one session (`sessionFigures`). */
export interface SessionFigures {
  tokensPerTask: number;
  /** The session's uncompacted run's tokens per task. */
  uncompactedTokensPerTask: number;
  probes: SweepProbes;
  overflowCalls: number;
  compactions: number;
  /** Why this point's replay of the session failed (its figures are then left out). */
  error?: string;
}

/** `artifact=1,error=2`: the given categories' weights over the defaults; a clear error names a bad one. */
export function parseWeights(text: string, base: Readonly<RetentionWeights> = DEFAULT_RETENTION_WEIGHTS): RetentionWeights {
  const weights = { ...base };
  for (const part of text.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (!(PROBE_CATEGORIES as readonly string[]).includes(name)) throw new SweepInputError(`--weights: unknown probe category "${name}"; the categories are ${PROBE_CATEGORIES.join(', ')}.`);
    const raw = eq < 0 ? '' : part.slice(eq + 1).trim();
    const value = raw === '' ? Number.NaN : Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new SweepInputError(`--weights: ${name} must be a number >= 0; got "${raw}".`);
    weights[name as ProbeCategory] = value;
  }
  checkWeights(weights);
  return weights;
}

/** Refuses weights that are negative or all 0. */
export function checkWeights(weights: RetentionWeights): void {
  for (const category of PROBE_CATEGORIES) {
    const w = weights[category];
    if (!Number.isFinite(w) || w < 0) throw new SweepInputError(`The weight of ${category} must be a number >= 0; got ${w}.`);
  }
  if (PROBE_CATEGORIES.every((category) => weights[category] === 0)) throw new SweepInputError('At least one probe category needs a weight above 0.');
}

/** `task=3, constraint=3, ...`: weights as the CLI and the page show them. */
export function formatWeights(weights: Readonly<RetentionWeights>): string {
  return PROBE_CATEGORIES.map((category) => `${category}=${weights[category]}`).join(',');
}

/** The weighted retention of probe counts (see the module comment), 0..1. */
export function weightedRetention(probes: Readonly<SweepProbes>, weights: Readonly<RetentionWeights>): number {
  let sum = 0;
  let weight = 0;
  for (const category of PROBE_CATEGORIES) {
    const { kept, total } = probes[category];
    if (total === 0) continue;
    sum += weights[category] * (kept / total);
    weight += weights[category];
  }
  return weight === 0 ? 1 : sum / weight;
}

/** The figures of configuration `index` of a session's compare run (one configuration per point). */
export function sessionFigures(output: CompareOutput, index: number): SessionFigures {
  const result = output.results[index];
  if (!result) throw new RangeError(`No configuration ${index} in this run.`);
  return {
    tokensPerTask: result.totals.tokensPerTask,
    uncompactedTokensPerTask: output.uncompacted.tokensPerTask,
    probes: retention(result.probes).byCategory,
    overflowCalls: result.totals.overflowCalls,
    compactions: result.totals.compactions,
    ...(result.error !== undefined ? { error: result.error } : {}),
  };
}

/** A point from its figures on each session (named, for its errors), scored with `weights`. */
export function scorePoint(options: SweepOptions, figures: ReadonlyArray<SessionFigures & { session: string }>, weights: Readonly<RetentionWeights>): SweepPoint {
  const ran = figures.filter((f) => f.error === undefined);
  const probes = emptyScores();
  let tokens = 0;
  let uncompacted = 0;
  let overflowCalls = 0;
  let compactions = 0;
  for (const f of ran) {
    tokens += f.tokensPerTask;
    uncompacted += f.uncompactedTokensPerTask;
    overflowCalls += f.overflowCalls;
    compactions += f.compactions;
    for (const category of PROBE_CATEGORIES) {
      probes[category].kept += f.probes[category].kept;
      probes[category].total += f.probes[category].total;
    }
  }
  const errors = figures.filter((f) => f.error !== undefined).map((f) => `${f.session}: ${f.error}`);
  return {
    options,
    tokensPerTask: ran.length === 0 ? 0 : Math.round(tokens / ran.length),
    ratioToUncompacted: ratioToUncompacted(tokens, { tokensPerTask: uncompacted }) ?? 1,
    retention: weightedRetention(probes, weights),
    probes,
    overflowCalls,
    compactions,
    ...(errors.length > 0 ? { errors } : {}),
  };
}
