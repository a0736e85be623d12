/** Command-line arguments of `eval`: many paths, a list of configurations, the output format. */
import { parseReplayFrom, type ReplayFrom } from '../core/compaction/input-scope.ts';
import { parseEvalBranches, type EvalBranches } from '../core/replay/eval-branches.ts';
import { parseConfigList } from '../core/replay/label.ts';
import type { ReplayConfig } from '../core/replay/types.ts';
import { FORMAT_IDS, type FormatId } from '../core/import/types.ts';
import { parseCounterId } from '../core/tokens/counters.ts';
import { parseUnseenPrefix } from '../core/replay/unseen-estimate.ts';
import type { EvalArgs } from './eval.ts';
import { checkModelFlags, defaultModelFlags, takeModelFlag, usesModel, type ModelFlags } from './model-flags.ts';

export type EvalOutput = 'text' | 'json' | 'csv' | 'md';

export class EvalUsageError extends Error {
  override name = 'UsageError';
}

export function parseEvalArgs(argv: readonly string[]): EvalArgs & { output: EvalOutput; modelFlags: ModelFlags } {
  const paths: string[] = [];
  let configs: ReplayConfig[] | undefined;
  let counter = 'o200k';
  let contextWindow = 200_000;
  let model: string | undefined;
  let priceModel: string | undefined;
  const modelFlags = defaultModelFlags();
  let format: FormatId | undefined;
  let jobs = 1;
  let unseenPrefix: string | undefined;
  let output: EvalOutput = 'text';
  let from: ReplayFrom | undefined;
  let branches: EvalBranches | undefined;
  let hook: string | undefined;
  let hookTimeoutMs: number | undefined;
  const choice = <T>(parse: () => T): T => {
    try {
      return parse();
    } catch (error) {
      throw new EvalUsageError((error as Error).message);
    }
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new EvalUsageError(`${arg} needs a value`);
      return next;
    };
    const whole = (min: number): number => {
      const raw = value();
      const n = Number(raw.replace(/_/g, ''));
      if (!Number.isInteger(n) || n < min) throw new EvalUsageError(`${arg} must be a whole number >= ${min}; got "${raw}"`);
      return n;
    };
    if (arg === '--strategies') {
      try {
        configs = parseConfigList(value());
      } catch (error) {
        throw new EvalUsageError((error as Error).message);
      }
    } else if (arg === '--configs-json') configs = JSON.parse(value()) as ReplayConfig[];
    else if (arg === '--window') contextWindow = whole(1);
    else if (arg === '--counter') counter = value();
    else if (arg === '--model') model = value();
    else if (arg === '--jobs') jobs = whole(1);
    else if (arg === '--unseen-prefix') {
      unseenPrefix = value();
      try {
        parseUnseenPrefix(unseenPrefix);
      } catch (error) {
        throw new EvalUsageError(`--unseen-prefix: ${(error as Error).message}`);
      }
    }
    else if (arg === '--price-model') priceModel = value();
    else if (takeModelFlag(modelFlags, arg, value)) continue;
    else if (arg === '--format') {
      const id = value();
      if (!(FORMAT_IDS as string[]).includes(id)) throw new EvalUsageError(`--format must be one of ${FORMAT_IDS.join(', ')}; got "${id}"`);
      format = id as FormatId;
    } else if (arg === '--from') from = choice(() => parseReplayFrom(value()));
    else if (arg === '--branches') branches = choice(() => parseEvalBranches(value()));
    else if (arg === '--hook') hook = value();
    else if (arg === '--hook-timeout') hookTimeoutMs = whole(1);
    else if (arg === '--json') output = 'json';
    else if (arg === '--csv') output = 'csv';
    else if (arg === '--md') output = 'md';
    else if (arg.startsWith('--')) throw new EvalUsageError(`unknown option ${arg}`);
    else paths.push(arg);
  }
  if (paths.length === 0) throw new EvalUsageError('eval needs at least one <file|folder>');
  if (!configs) throw new EvalUsageError('eval needs --strategies, e.g. --strategies pi,augment,observation-masking:keepTurns=5');
  if (configs.length > 8) throw new EvalUsageError(`eval compares at most 8 configurations; got ${configs.length}`);
  // With a model, --model names it; the price table's model of the replayed calls is then --price-model (default: the recorded one).
  if (usesModel(modelFlags)) {
    if (model !== undefined) modelFlags.model = model;
    model = priceModel;
    if (jobs > 1) throw new EvalUsageError('--jobs splits the files over processes that cannot share one model run: use --concurrency N with a model');
  } else model = priceModel ?? model;
  checkModelFlags(modelFlags, true);
  if (hookTimeoutMs !== undefined && hook === undefined) throw new EvalUsageError('--hook-timeout needs --hook MODULE.mjs');
  // With --hook, every configuration runs the hooks unless --configs-json turns them off ("hooks": false).
  if (hook !== undefined) configs = configs.map((config) => (config.hooks === undefined ? { ...config, hooks: true } : config));
  else if (configs.some((config) => config.hooks)) throw new EvalUsageError('a configuration runs hooks ("hooks": true) but no --hook MODULE.mjs was given');
  return { paths, configs, counter: parseCounterId(counter), contextWindow, ...(model ? { model } : {}), ...(format ? { format } : {}), ...(from ? { from } : {}), ...(branches ? { branches } : {}), ...(unseenPrefix !== undefined ? { unseenPrefix } : {}), ...(hook !== undefined ? { hook } : {}), ...(hookTimeoutMs !== undefined ? { hookTimeoutMs } : {}), jobs, output, modelFlags };
}
