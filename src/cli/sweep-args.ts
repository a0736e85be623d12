/** Command-line arguments of `sweep`: the paths, the strategy and its varied options, the scoring and the output format. */
import { parseKeyValues } from '../core/compaction/options.ts';
import { parseReplayFrom } from '../core/compaction/input-scope.ts';
import { FORMAT_IDS, type FormatId } from '../core/import/types.ts';
import { parseUnseenPrefix } from '../core/replay/unseen-estimate.ts';
import { SweepInputError } from '../core/sweep/points.ts';
import { DEFAULT_RETENTION_WEIGHTS, parseWeights } from '../core/sweep/score.ts';
import { parseCounterId } from '../core/tokens/counters.ts';
import type { SweepArgs } from './sweep.ts';

export type SweepOutput = 'text' | 'json' | 'csv' | 'md';

/** The parsed command line; every mistake is a SweepInputError (exit code 2). */
export function parseSweepArgs(argv: readonly string[]): SweepArgs & { output: SweepOutput } {
  const paths: string[] = [];
  const vary: string[] = [];
  const options: string[] = [];
  let strategy: string | undefined;
  let random: number | undefined;
  let seed: number | undefined;
  let counter = 'o200k';
  let contextWindow = 200_000;
  let weights = { ...DEFAULT_RETENTION_WEIGHTS };
  let tolerance: number | undefined;
  let jobs = 1;
  let format: FormatId | undefined;
  let from: SweepArgs['from'];
  let unseenPrefix: string | undefined;
  let output: SweepOutput = 'text';
  const refuse = (message: string) => new SweepInputError(message);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw refuse(`${arg} needs a value`);
      return next;
    };
    const whole = (min: number): number => {
      const raw = value();
      const n = Number(raw.replace(/_/g, ''));
      if (raw.trim() === '' || !Number.isInteger(n) || n < min) throw refuse(`${arg} must be a whole number >= ${min}; got "${raw}"`);
      return n;
    };
    const guarded = <T>(parse: () => T): T => {
      try {
        return parse();
      } catch (error) {
        throw refuse(`${arg}: ${(error as Error).message}`);
      }
    };
    if (arg === '--strategy') strategy = value();
    else if (arg === '--vary') vary.push(value());
    else if (arg === '--option') options.push(value());
    else if (arg === '--random') random = whole(1);
    else if (arg === '--seed') seed = whole(0);
    else if (arg === '--window') contextWindow = whole(1);
    else if (arg === '--counter') counter = value();
    else if (arg === '--weights') weights = parseWeights(value());
    else if (arg === '--tolerance') {
      const raw = value();
      tolerance = Number(raw);
      if (raw.trim() === '' || !(tolerance >= 0 && tolerance <= 1)) throw refuse(`--tolerance must be a number from 0 to 1 (retention, absolute); got "${raw}"`);
    } else if (arg === '--jobs') jobs = whole(1);
    else if (arg === '--format') {
      const id = value();
      if (!(FORMAT_IDS as string[]).includes(id)) throw refuse(`--format must be one of ${FORMAT_IDS.join(', ')}; got "${id}"`);
      format = id as FormatId;
    } else if (arg === '--from') from = guarded(() => parseReplayFrom(value()));
    else if (arg === '--unseen-prefix') {
      unseenPrefix = value();
      guarded(() => parseUnseenPrefix(unseenPrefix!));
    } else if (arg === '--json') output = 'json';
    else if (arg === '--csv') output = 'csv';
    else if (arg === '--md') output = 'md';
    else if (arg.startsWith('--')) throw refuse(`unknown option ${arg}`);
    else paths.push(arg);
  }
  if (paths.length === 0) throw refuse('sweep needs at least one <file|folder>');
  if (!strategy) throw refuse('sweep needs --strategy, e.g. --strategy pi');
  if (vary.length === 0) throw refuse('sweep needs at least one --vary, e.g. --vary keepRecentTokens=2000..20000:5');
  const after = <T>(flag: string, parse: () => T): T => {
    try {
      return parse();
    } catch (error) {
      throw refuse(`${flag}: ${(error as Error).message}`);
    }
  };
  return {
    paths, strategy, vary, options: after('--option', () => parseKeyValues(options)), counter: after('--counter', () => parseCounterId(counter)), contextWindow, weights, jobs, output,
    ...(random !== undefined ? { random } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(tolerance !== undefined ? { tolerance } : {}),
    ...(format ? { format } : {}),
    ...(from ? { from } : {}),
    ...(unseenPrefix !== undefined ? { unseenPrefix } : {}),
  };
}
