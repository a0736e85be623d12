/**
 * Command-line arguments of `session`: the folder, the model (a server or a script), the strategy
 * configuration, the user messages in order, and where the session is written. The API key is
 * never an argument: it is read from FOLDLAB_API_KEY.
 */
import { DEFAULT_MENTION_MODE, parseMentionMode, type MentionMode } from '../core/agent/mentions.ts';
import { parseKeyValues } from '../core/compaction/options.ts';
import { STRATEGY_IDS } from '../core/strategies/index.ts';
import { parseCounterId, type CounterId } from '../core/tokens/counters.ts';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_REPLY_TIMEOUT_MS } from '../llm/remote/timeouts.ts';
import type { StrategyId } from '../core/compaction/types.ts';

export class SessionUsageError extends Error {
  override name = 'UsageError';
}

export interface SessionArgs {
  dir: string;
  /** OpenAI-compatible or Anthropic server; absent when `script` drives the session. */
  baseUrl?: string;
  model?: string;
  api: 'openai' | 'anthropic';
  /** A JSON script of replies (the scripted model) instead of a server. */
  script?: string;
  strategy: StrategyId;
  options: Record<string, string>;
  /** Context window, tokens (default 128,000: what local servers commonly serve). */
  window: number;
  counter: CounterId;
  prompts: string[];
  out: string;
  json: boolean;
  /** Honour the folder's .gitignore files. */
  gitignore: boolean;
  /** `@file` mentions: a reminder naming the files (default, the seed) or their contents pasted (L8). */
  mentions: MentionMode;
  /** Who writes the strategy's summaries: the session's model (default) or the offline summarizer. */
  summarizer: 'model' | 'offline';
  /** Longest silence inside a model's reply before it fails with an idle timeout, ms (`--idle-timeout <s>`, default 60 s). */
  idleTimeoutMs: number;
  /** Longest wait for a reply's headers before it fails with a connect timeout, ms (`--connect-timeout <s>`, default 60 s). */
  connectTimeoutMs: number;
  /** Longest a whole reply may take, retries and their waits included, before it fails with a reply timeout, ms (`--reply-timeout <s>`, default 300 s). */
  replyTimeoutMs: number;
}

export const DEFAULT_SESSION_WINDOW = 128_000;

/** `--idle-timeout <s>`, `--connect-timeout <s>` or `--reply-timeout <s>`: seconds (decimals allowed) > 0, as ms. */
export function parseIdleTimeout(raw: string, flag = '--idle-timeout'): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n <= 0) throw new SessionUsageError(`${flag} must be a number of seconds above 0; got "${raw}"`);
  return Math.round(n * 1000);
}

export function parseSessionArgs(argv: readonly string[]): SessionArgs {
  let dir: string | undefined;
  let baseUrl: string | undefined;
  let model: string | undefined;
  let api: SessionArgs['api'] = 'openai';
  let script: string | undefined;
  let strategy = 'pi';
  const options: string[] = [];
  let window = DEFAULT_SESSION_WINDOW;
  let counter: CounterId = 'o200k';
  const prompts: string[] = [];
  let out: string | undefined;
  let json = false;
  let gitignore = false;
  let mentions: MentionMode = DEFAULT_MENTION_MODE;
  let summarizer: SessionArgs['summarizer'] = 'model';
  let idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS;
  let connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS;
  let replyTimeoutMs = DEFAULT_REPLY_TIMEOUT_MS;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new SessionUsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === '--dir') dir = value();
    else if (arg === '--base-url') baseUrl = value();
    else if (arg === '--model') model = value();
    else if (arg === '--api') {
      const name = value();
      if (name !== 'openai' && name !== 'anthropic') throw new SessionUsageError(`--api must be openai or anthropic; got "${name}"`);
      api = name;
    } else if (arg === '--script') script = value();
    else if (arg === '--strategy') strategy = value();
    else if (arg === '--option') options.push(value());
    else if (arg === '--window') {
      const raw = value();
      const n = Number(raw.replace(/_/g, ''));
      if (!Number.isInteger(n) || n < 1) throw new SessionUsageError(`--window must be a whole number of tokens; got "${raw}"`);
      window = n;
    } else if (arg === '--counter') {
      try {
        counter = parseCounterId(value());
      } catch (error) {
        throw new SessionUsageError((error as Error).message);
      }
    } else if (arg === '--prompt') prompts.push(value());
    else if (arg === '--out') out = value();
    else if (arg === '--json') json = true;
    else if (arg === '--gitignore') gitignore = true;
    else if (arg === '--mentions') {
      try {
        mentions = parseMentionMode(value());
      } catch (error) {
        throw new SessionUsageError(`--${(error as Error).message}`);
      }
    }
    else if (arg === '--idle-timeout') idleTimeoutMs = parseIdleTimeout(value());
    else if (arg === '--connect-timeout') connectTimeoutMs = parseIdleTimeout(value(), '--connect-timeout');
    else if (arg === '--reply-timeout') replyTimeoutMs = parseIdleTimeout(value(), '--reply-timeout');
    else if (arg === '--summarizer') {
      const name = value();
      if (name !== 'model' && name !== 'offline') throw new SessionUsageError(`--summarizer must be model or offline; got "${name}"`);
      summarizer = name;
    } else if (arg === '--api-key' || arg.startsWith('--api-key=') || arg === '--key') {
      throw new SessionUsageError('the API key is never a command-line argument (it would stay in the shell history): set FOLDLAB_API_KEY');
    } else throw new SessionUsageError(`unknown ${arg.startsWith('--') ? 'option' : 'argument'} ${arg}`);
  }
  if (!dir) throw new SessionUsageError('session needs --dir <folder>');
  if (!out) throw new SessionUsageError('session needs --out <file.jsonl>');
  if (prompts.length === 0) throw new SessionUsageError('session needs at least one --prompt "<user message>"');
  if (script === undefined) {
    if (!baseUrl) throw new SessionUsageError('session needs --base-url <url> (or --script <replies.json>)');
    if (!model) throw new SessionUsageError('session needs --model <name>');
  } else if (baseUrl) throw new SessionUsageError('--script and --base-url exclude each other');
  if (!(STRATEGY_IDS as readonly string[]).includes(strategy) || strategy === 'custom') {
    throw new SessionUsageError(`--strategy must be one of ${STRATEGY_IDS.filter((id) => id !== 'custom').join(', ')}; got "${strategy}"`);
  }
  let parsedOptions: Record<string, string>;
  try {
    parsedOptions = parseKeyValues(options);
  } catch (error) {
    throw new SessionUsageError((error as Error).message);
  }
  return {
    dir, api, strategy: strategy as StrategyId, options: parsedOptions, window, counter, prompts, out, json, gitignore, mentions, summarizer, idleTimeoutMs, connectTimeoutMs, replyTimeoutMs,
    ...(baseUrl ? { baseUrl } : {}), ...(model ? { model } : {}), ...(script !== undefined ? { script } : {}),
  };
}
