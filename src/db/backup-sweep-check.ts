/**
 * The check a backup's saved sweep (sweep-row.ts) passes before a restore may store it: every field
 * the Sweep tab reads is there with its type, the figures have one row per point and one cell per
 * session, and the weights are ones the tab can score with. The first problem is said in a
 * sentence naming the sweep and the field, so the reader (backup-format.ts) refuses the file at
 * that line and nothing is stored. Pure: the CLI's backup-check uses it too.
 */
import { PROBE_CATEGORIES } from '../core/probes/types.ts';
import { COUNTER_IDS, type CounterId } from '../core/tokens/counters.ts';

type Row = Record<string, unknown>;

function isObject(value: unknown): value is Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function got(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

/** Why a probe-count record (`{ task: { kept, total }, … }`) is unusable, or undefined. */
function probesProblem(probes: unknown): string | undefined {
  if (!isObject(probes)) return `probes should be an object of probe categories, got ${got(probes)}`;
  for (const category of PROBE_CATEGORIES) {
    const counts = probes[category];
    if (!isObject(counts) || !isCount(counts.kept) || !isCount(counts.total) || counts.kept > counts.total) {
      return `probes.${category} should be { kept, total } with 0 <= kept <= total, got ${isObject(counts) ? JSON.stringify(counts) : got(counts)}`;
    }
  }
  return undefined;
}

/** Why one point's figures on one session are unusable, or undefined. */
function figuresProblem(cell: unknown): string | undefined {
  if (!isObject(cell)) return `should be an object, got ${got(cell)}`;
  for (const field of ['tokensPerTask', 'uncompactedTokensPerTask'] as const) {
    const value = cell[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `${field} should be a number >= 0, got ${got(value)}`;
  }
  for (const field of ['overflowCalls', 'compactions'] as const) {
    if (!isCount(cell[field])) return `${field} should be a whole number >= 0, got ${got(cell[field])}`;
  }
  if (cell.error !== undefined && typeof cell.error !== 'string') return `error should be text, got ${got(cell.error)}`;
  return probesProblem(cell.probes);
}

/** Why the row's fields other than figures are unusable, or undefined. */
function fieldsProblem(row: Row): string | undefined {
  for (const field of ['name', 'strategy', 'summarizer'] as const) {
    if (typeof row[field] !== 'string') return `${field} should be text, got ${got(row[field])}`;
  }
  for (const field of ['createdAt', 'durationMs'] as const) {
    const value = row[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `${field} should be a number >= 0, got ${got(value)}`;
  }
  if (!COUNTER_IDS.includes(row.counter as CounterId)) return `counter should be one of ${COUNTER_IDS.join(', ')}, got ${got(row.counter)}`;
  const window = row.contextWindow;
  if (typeof window !== 'number' || !Number.isFinite(window) || window <= 0) return `contextWindow should be a number of tokens above 0, got ${got(window)}`;
  if (typeof row.cancelled !== 'boolean') return `cancelled should be true or false, got ${got(row.cancelled)}`;
  const plan = row.plan;
  if (!isObject(plan) || !Array.isArray(plan.vary) || !plan.vary.every((item) => typeof item === 'string')) return 'plan should be { vary: [text, …] }';
  for (const field of ['random', 'seed'] as const) {
    if (plan[field] !== undefined && (typeof plan[field] !== 'number' || !Number.isFinite(plan[field]))) return `plan.${field} should be a number when given, got ${got(plan[field])}`;
  }
  if (!Array.isArray(row.sessions) || row.sessions.length === 0) return `sessions should be a list of at least one session, got ${got(row.sessions)}`;
  for (const [i, session] of row.sessions.entries()) {
    if (!isObject(session) || ['conversationId', 'importId', 'title'].some((field) => typeof session[field] !== 'string')) {
      return `sessions[${i}] should be { conversationId, importId, title } (text each)`;
    }
  }
  if (!Array.isArray(row.points)) return `points should be a list, got ${got(row.points)}`;
  for (const [i, point] of row.points.entries()) {
    if (!isObject(point) || !Object.values(point).every((value) => ['number', 'boolean', 'string'].includes(typeof value))) {
      return `points[${i}] should be an object of settings (numbers, true/false or text)`;
    }
  }
  if (!isCount(row.planned) || row.planned < row.points.length) return `planned should be a whole number >= its ${row.points.length} points, got ${got(row.planned)}`;
  return weightsProblem(row.weights);
}

function weightsProblem(weights: unknown): string | undefined {
  if (!isObject(weights)) return `weights should be an object of probe categories, got ${got(weights)}`;
  for (const category of PROBE_CATEGORIES) {
    const w = weights[category];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) return `weights.${category} should be a number >= 0, got ${got(w)}`;
  }
  if (PROBE_CATEGORIES.every((category) => weights[category] === 0)) return 'weights are all 0 (at least one probe category needs a weight above 0)';
  return undefined;
}

/**
 * The first problem of a backup's sweeps row, in words (`sweep "name": figures[1][0].compactions
 * should be …`), or undefined when the Sweep tab can open and score it.
 */
export function sweepRowProblem(row: Row): string | undefined {
  const name = typeof row.name === 'string' ? `sweep ${JSON.stringify(row.name)}` : `sweep ${JSON.stringify(row.id)}`;
  const problem = fieldsProblem(row);
  if (problem) return `${name}: ${problem}.`;
  const points = row.points as unknown[];
  const sessions = row.sessions as unknown[];
  const figures = row.figures;
  if (!Array.isArray(figures) || figures.length !== points.length) {
    return `${name}: figures should hold one list per point (${points.length}), got ${Array.isArray(figures) ? `${figures.length}` : got(figures)}.`;
  }
  for (const [p, perSession] of figures.entries()) {
    if (!Array.isArray(perSession) || perSession.length !== sessions.length) {
      return `${name}: figures[${p}] should hold one cell per session (${sessions.length}), got ${Array.isArray(perSession) ? `${perSession.length}` : got(perSession)}.`;
    }
    for (const [s, cell] of perSession.entries()) {
      const cellProblem = figuresProblem(cell);
      if (cellProblem) return `${name}: figures[${p}][${s}]${cellProblem.startsWith('should') ? ' ' : '.'}${cellProblem}.`;
    }
  }
  return undefined;
}
