/**
 * The points of a sweep: which settings of a strategy are replayed. Each `--vary` names one of the
 * strategy's options and its values: a range `from..to[:steps]` for a number (evenly spaced, whole
 * numbers for an integer option), a list `a,b,c`, or the bare name of a boolean or enum option for
 * all its values. The points are the grid of every combination, or N of them drawn at random from
 * the same ranges with a seed (the same seed gives the same points). Every value is checked
 * against the option's spec before anything runs, and each point holds the strategy's full parsed
 * options (defaults filled in), ready to replay.
 */
import { parseOptions, type OptionSpec } from '../compaction/options.ts';
import { Rng } from '../demo/rng.ts';
import { configOptionSpecs, parseConfigOptions, REPLAYABLE_IDS } from '../replay/config-options.ts';
import type { SweepOptions } from './types.ts';

/** Steps of a range given without `:steps`. */
export const DEFAULT_RANGE_STEPS = 5;

/** Most points a sweep may have (grid or random). */
export const MAX_SWEEP_POINTS = 10_000;

/** A sweep that cannot start: what was asked, and what is accepted instead. */
export class SweepInputError extends Error {
  override name = 'SweepInputError';
}

type Value = number | boolean | string;

/** One varied option, checked against its spec. */
export interface VariedOption {
  /** The option's own name (an alias given on input is resolved). */
  option: string;
  /** The grid's values, in order. */
  values: Value[];
  /** For a range: its bounds, sampled uniformly by `--random`. */
  range?: { from: number; to: number; integer: boolean };
}

/** Reads one `--vary` text against the strategy's option specs (see the module comment). */
export function parseVary(text: string, specs: readonly OptionSpec[]): VariedOption {
  const eq = text.indexOf('=');
  const name = (eq < 0 ? text : text.slice(0, eq)).trim();
  const spec = specs.find((s) => s.name === name || s.alias === name);
  if (!spec) throw new SweepInputError(`--vary ${text}: unknown option "${name}"; this strategy takes: ${specs.map((s) => s.name).join(', ')}.`);
  const fail = (why: string) => new SweepInputError(`--vary ${text}: ${why}`);
  const check = (value: unknown): Value => {
    try {
      return parseOptionValue(spec, value);
    } catch (error) {
      throw fail((error as Error).message);
    }
  };
  if (spec.type === 'text' || spec.type === 'string') throw fail(`${spec.name} is free text and cannot be swept; vary a number, boolean or choice option.`);
  if (eq < 0) {
    if (spec.type === 'boolean') return { option: spec.name, values: [false, true] };
    if (spec.type === 'enum') return { option: spec.name, values: [...(spec.values ?? [])] };
    throw fail(`give ${spec.name} a range, e.g. ${spec.name}=${spec.min ?? 0}..${(spec.min ?? 0) + 10_000}:5, or a list of values a,b,c.`);
  }
  const body = text.slice(eq + 1).trim();
  const range = /^(-?[\d_.]+(?:e\d+)?)\.\.(-?[\d_.]+(?:e\d+)?)(?::(.+))?$/i.exec(body);
  if (!range) {
    const values = body.split(',').map((part) => part.trim()).filter((part) => part !== '');
    if (values.length === 0) throw fail('expected a range from..to[:steps] or a list of values a,b,c.');
    return { option: spec.name, values: unique(values.map(check)) };
  }
  if (spec.type !== 'integer' && spec.type !== 'number') throw fail(`${spec.name} is ${spec.type === 'boolean' ? 'true or false' : `one of ${spec.values?.join(', ')}`}: list its values (${spec.name}=a,b) or give its bare name for all of them.`);
  const from = check(range[1]!) as number;
  const to = check(range[2]!) as number;
  if (from > to) throw fail(`the range must go up: ${from} is above ${to}.`);
  const stepsText = range[3];
  const steps = stepsText === undefined ? DEFAULT_RANGE_STEPS : Number(stepsText);
  if (!Number.isInteger(steps) || steps < 1) throw fail(`steps must be a whole number >= 1; got "${stepsText}".`);
  if (steps === 1 && from !== to) throw fail('one step cannot cover a range: give steps >= 2, or a single value.');
  const integer = spec.type === 'integer';
  return { option: spec.name, values: spaced(from, to, steps, integer), range: { from, to, integer } };
}

/** One value of an option, coerced and checked by the options parser (its message names the option and range). */
function parseOptionValue(spec: OptionSpec, value: unknown): Value {
  return parseOptions([spec], { [spec.name]: value })[spec.name]!;
}

/** `steps` evenly spaced values from `from` to `to`, whole numbers for an integer option, each once. */
export function spaced(from: number, to: number, steps: number, integer: boolean): number[] {
  if (from === to || steps === 1) return [from];
  const values: number[] = [];
  for (let k = 0; k < steps; k++) {
    const raw = from + ((to - from) * k) / (steps - 1);
    values.push(integer ? Math.round(raw) : roundTo(raw));
  }
  return unique(values) as number[];
}

function roundTo(value: number): number {
  return Number(value.toPrecision(6));
}

function unique(values: Value[]): Value[] {
  return [...new Set(values)];
}

export interface SweepPointsArgs {
  strategy: string;
  /** The `--vary` texts; at least one. */
  vary: readonly string[];
  /** Draw this many points at random from the ranges instead of the grid. */
  random?: number;
  /** Seed of the random draw (default 1). */
  seed?: number;
  /** Options every point shares (raw, as `--option k=v` would give them). */
  base?: Record<string, unknown>;
  /** The replay's window (folding's own window follows it). */
  contextWindow?: number;
}

/** The points of a sweep, each the strategy's full parsed options (see the module comment). */
export function sweepPoints(args: SweepPointsArgs): SweepOptions[] {
  if (!REPLAYABLE_IDS.includes(args.strategy)) throw new SweepInputError(`Unknown strategy "${args.strategy}": use one of ${REPLAYABLE_IDS.join(', ')}.`);
  const specs = configOptionSpecs(args.strategy);
  if (args.vary.length === 0) throw new SweepInputError('A sweep needs at least one --vary option=from..to[:steps].');
  const varied = args.vary.map((text) => parseVary(text, specs));
  const seen = new Set<string>();
  for (const v of varied) {
    if (seen.has(v.option)) throw new SweepInputError(`--vary names ${v.option} twice: give it once, with all its values.`);
    seen.add(v.option);
  }
  const raw = args.random !== undefined ? randomRaw(varied, args.random, args.seed ?? 1) : gridRaw(varied);
  return raw.map((values) => {
    const options = { ...(args.base ?? {}), ...values };
    try {
      return parseConfigOptions({ strategy: args.strategy, options }, args.contextWindow) as SweepOptions;
    } catch (error) {
      throw new SweepInputError(`The point ${describe(values)} is refused: ${(error as Error).message}`);
    }
  });
}

function describe(values: Record<string, Value>): string {
  return Object.entries(values).map(([k, v]) => `${k}=${String(v)}`).join(', ');
}

/** Every combination of the varied values, the first option changing slowest. */
function gridRaw(varied: readonly VariedOption[]): Array<Record<string, Value>> {
  const size = varied.reduce((n, v) => n * v.values.length, 1);
  if (size > MAX_SWEEP_POINTS) throw new SweepInputError(`The grid has ${size.toLocaleString('en-US')} points; a sweep takes at most ${MAX_SWEEP_POINTS.toLocaleString('en-US')}: give fewer steps, or draw --random N of them.`);
  let points: Array<Record<string, Value>> = [{}];
  for (const v of varied) points = points.flatMap((point) => v.values.map((value) => ({ ...point, [v.option]: value })));
  return points;
}

/** `count` distinct points drawn from the ranges and lists; fewer when the space holds fewer. */
function randomRaw(varied: readonly VariedOption[], count: number, seed: number): Array<Record<string, Value>> {
  if (!Number.isInteger(count) || count < 1 || count > MAX_SWEEP_POINTS) throw new SweepInputError(`--random must be a whole number from 1 to ${MAX_SWEEP_POINTS}; got ${count}.`);
  if (!Number.isInteger(seed)) throw new SweepInputError(`--seed must be a whole number; got ${seed}.`);
  const rng = new Rng(seed);
  const points: Array<Record<string, Value>> = [];
  const keys = new Set<string>();
  // Give up after many repeats: a small space (booleans, short lists) holds fewer distinct points.
  for (let tries = 0; points.length < count && tries < count * 50; tries++) {
    const point: Record<string, Value> = {};
    for (const v of varied) point[v.option] = v.range ? draw(rng, v.range) : v.values[rng.int(0, v.values.length - 1)]!;
    const key = JSON.stringify(point);
    if (keys.has(key)) continue;
    keys.add(key);
    points.push(point);
  }
  return points;
}

function draw(rng: Rng, range: NonNullable<VariedOption['range']>): number {
  return range.integer ? rng.int(range.from, range.to) : roundTo(range.from + rng.next() * (range.to - range.from));
}
