/**
 * The flags that put a real model behind `eval`, `compact` and `fold`: who writes the summaries
 * (`--summarizer model` with `--base-url`, `--model`, `--api`), the judged mode (`--judge`,
 * `--judge-model`, `--judge-at`), the spend guard (`--max-cost`, `--dry-run`) and the run's
 * plumbing (`--cache`, `--concurrency`). The API key is read from FOLDLAB_API_KEY only: a key on
 * the command line would stay in the shell history, so it is refused.
 */
import type { RemoteConfig } from '../llm/remote/remote-config.ts';

/** Requests in flight at once, by default. */
export const DEFAULT_CONCURRENCY = 2;

export interface ModelFlags {
  /** Who writes the summaries: the offline summarizer (default) or the model at `baseUrl`. */
  summarizer: 'offline' | 'model';
  /** OpenAI-compatible root with its version (`http://localhost:11434/v1`) or the Anthropic root. */
  baseUrl?: string;
  /** The served model's name (`--model`): with `--summarizer model` it writes the summaries. */
  model?: string;
  /** Wire format. Default openai. */
  api: 'openai' | 'anthropic';
  /** Ask questions of the compacted contexts and grade the answers (eval only). */
  judge: boolean;
  /** The model that answers and grades. Default: `model`. */
  judgeModel?: string;
  /** Judge the context right after each compaction (default) or the context at the final call. */
  judgeAt: 'compaction' | 'final';
  /** Refuse to send anything when the estimate is above this many USD. */
  maxCost?: number;
  /** Print the estimate and send nothing. */
  dryRun: boolean;
  /** Folder of finished requests: a rerun sends only what is missing. */
  cache?: string;
  /** Requests in flight at most. Default 2. */
  concurrency: number;
}

export class ModelFlagError extends Error {
  override name = 'UsageError';
}

export function defaultModelFlags(): ModelFlags {
  return { summarizer: 'offline', api: 'openai', judge: false, judgeAt: 'compaction', dryRun: false, concurrency: DEFAULT_CONCURRENCY };
}

const KEY_FLAG = /^--(api-?key|key|token)(=|$)/;

/**
 * Reads `arg` into `flags` when it is one of these flags (`value` takes its value); false when it
 * is not. `--model` is left to the caller: it names the summarizing model here, and the price
 * table's model in `eval` without `--summarizer model`.
 */
export function takeModelFlag(flags: ModelFlags, arg: string, value: () => string): boolean {
  if (KEY_FLAG.test(arg)) throw new ModelFlagError('the API key is never a command-line argument (it would stay in the shell history): set FOLDLAB_API_KEY');
  switch (arg) {
    case '--summarizer': {
      const name = value();
      if (name !== 'offline' && name !== 'model') throw new ModelFlagError(`--summarizer must be offline or model; got "${name}"`);
      flags.summarizer = name;
      return true;
    }
    case '--base-url':
      flags.baseUrl = value();
      return true;
    case '--api': {
      const name = value();
      if (name !== 'openai' && name !== 'anthropic') throw new ModelFlagError(`--api must be openai or anthropic; got "${name}"`);
      flags.api = name;
      return true;
    }
    case '--judge':
      flags.judge = true;
      return true;
    case '--judge-model':
      flags.judgeModel = value();
      return true;
    case '--judge-at': {
      const at = value();
      if (at !== 'compaction' && at !== 'final') throw new ModelFlagError(`--judge-at must be compaction or final; got "${at}"`);
      flags.judgeAt = at;
      return true;
    }
    case '--max-cost': {
      const raw = value();
      const usd = Number(raw.replace(/^\$/, ''));
      if (raw.trim() === '' || !Number.isFinite(usd) || usd < 0) throw new ModelFlagError(`--max-cost must be an amount in USD, e.g. 0.50; got "${raw}"`);
      flags.maxCost = usd;
      return true;
    }
    case '--dry-run':
      flags.dryRun = true;
      return true;
    case '--cache':
      flags.cache = value();
      return true;
    case '--concurrency': {
      const raw = value();
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 1 || n > 64) throw new ModelFlagError(`--concurrency must be a whole number from 1 to 64; got "${raw}"`);
      flags.concurrency = n;
      return true;
    }
    default:
      return false;
  }
}

/** The checks across flags, once all are read. `judgeAllowed`: only eval judges. */
export function checkModelFlags(flags: ModelFlags, judgeAllowed: boolean): void {
  const usesModel = flags.summarizer === 'model' || flags.judge;
  if (flags.judge && !judgeAllowed) throw new ModelFlagError('--judge runs with eval only');
  if (!flags.judge && (flags.judgeModel !== undefined || flags.judgeAt !== 'compaction')) throw new ModelFlagError('--judge-model and --judge-at go with --judge');
  if (usesModel) {
    if (!flags.baseUrl) throw new ModelFlagError(`${flags.judge ? '--judge' : '--summarizer model'} needs --base-url <url> (e.g. http://localhost:11434/v1 for Ollama)`);
    if (!/^https?:\/\/[^\s/]+/.test(flags.baseUrl.trim())) throw new ModelFlagError(`--base-url must start with http:// or https://; got "${flags.baseUrl}"`);
    if (!flags.model && !(flags.judge && flags.judgeModel && flags.summarizer === 'offline')) throw new ModelFlagError('--summarizer model and --judge need --model <name> (e.g. llama3.1, gpt-4o-mini, claude-haiku-4-5)');
  } else if (flags.baseUrl !== undefined || flags.maxCost !== undefined || flags.dryRun || flags.cache !== undefined) {
    throw new ModelFlagError('--base-url, --max-cost, --dry-run and --cache go with --summarizer model or --judge');
  }
}

/** Whether any request would go to a model. */
export function usesModel(flags: ModelFlags): boolean {
  return flags.summarizer === 'model' || flags.judge;
}

/** The server config of `model` (the summarizer's, or the judge's), with the key from the environment when it is set. */
export function remoteOf(flags: ModelFlags, model: string, env: NodeJS.ProcessEnv): RemoteConfig {
  const apiKey = env.FOLDLAB_API_KEY;
  return { presetId: 'custom', api: flags.api, baseUrl: flags.baseUrl ?? '', model, ...(apiKey ? { apiKey } : {}) };
}

/** What names a model in the cache and the report: wire format, base URL and model (never the key). */
export function modelIdentity(flags: Pick<ModelFlags, 'api' | 'baseUrl'>, model: string): string {
  return `${flags.api}|${(flags.baseUrl ?? '').trim().replace(/\/+$/, '')}|${model.trim()}`;
}
