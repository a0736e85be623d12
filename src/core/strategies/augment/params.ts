/**
 * Augment's history summarization params (seed 000 §1.3, §1.6, §8) as typed options: accepted as the
 * feature flag's snake_case JSON (nested `abridged_history_params` / `memories_params` objects or
 * the whole `history_summary_params` string included), parsed to camelCase, validated with their
 * ranges. A supervisor template without `{summary}` is not refused: like the original it falls back
 * to the default, and the plan says so.
 */
import { OptionError, parseOptions, type OptionSpec } from '../../compaction/options.ts';
import { MEMORIES_PROMPT_ID, SUMMARY_NODE_RESPONSE, SUMMARY_PROMPT_ID, SUPERVISOR_TEMPLATE } from './templates.ts';

export type SummaryMode = 'replace' | 'nested';
export type SizeUnit = 'chars' | 'tokens';
export type ExchangeUnit = 'turn' | 'iteration';

export interface AugmentOptions {
  [name: string]: number | boolean | string;
  /** `isHistorySummaryEnabled` (§1.4): false removes every summary node and sends the whole history. Default true. */
  enabled: boolean;
  /** Proactive trigger: summarize when the history reaches this size. 0 disables it. Default 50,000 chars (§1.6; Augment's code default is 0). */
  triggerOnHistorySizeChars: number;
  /** Threshold used when the cache-expiry timer fires. 0 disables that trigger. Default 30,000 chars (§1.6; code default 0). */
  triggerOnHistorySizeCharsWhenCacheExpiring: number;
  /** The newest history of about this size stays verbatim (the tail). Default 5,000 chars (§1.6; code default 0). */
  historyTailSizeCharsToExclude: number;
  /** At least this many newest exchanges stay in the tail whatever their size. Default 1 exchange (Augment passes 1). */
  minTailExchanges: number;
  /** Prompt file id of the summarization prompt; empty disables summarization (§1.2). Default `augment-summary`. */
  prompt: string;
  /** Prompt cache time to live. Default 300,000 ms (§1.6; code default 0). */
  cacheTTLMs: number;
  /** The cache-expiry trigger fires this long before the cache expires. Default 30,000 ms (§1.6; code default 0). */
  bufferTimeBeforeCacheExpirationMs: number;
  /** Summary node request text; must contain `{summary}` (else the default is used). Default: the seed's `<supervisor>` template. */
  summaryNodeRequestMessageTemplate: string;
  /** The summary node's fixed response. Default "Ok. I will continue the conversation from this point." */
  summaryNodeResponseMessage: string;
  /** Abridged history: characters of all rendered exchanges together. Default 10,000 chars. */
  totalCharsLimit: number;
  /** Abridged history: characters of one user message (middle truncated). Default 1,000 chars. */
  userMessageCharsLimit: number;
  /** Abridged history: characters of one agent response (middle truncated). Default 2,000 chars. */
  agentResponseCharsLimit: number;
  /** Abridged history: characters of one file path or command (middle truncated). Default 200 chars. */
  actionCharsLimit: number;
  /** Abridged history: files modified listed per exchange. Default 10. */
  numFilesModifiedLimit: number;
  /** Abridged history: files created listed per exchange. Default 10. */
  numFilesCreatedLimit: number;
  /** Abridged history: files deleted listed per exchange. Default 10. */
  numFilesDeletedLimit: number;
  /** Abridged history: files viewed listed per exchange. Default 10. */
  numFilesViewedLimit: number;
  /** Abridged history: terminal commands listed per exchange. Default 10. */
  numTerminalCommandsLimit: number;
  /** Version stamped on summary nodes; a previous summary of another version is filtered out (§2.2). Default 3. */
  historySummaryVersion: number;
  /** `replace`: the old summary is dropped (the original, §2.1); `nested`: it is input to the new one (§13.3). Default replace. */
  summaryMode: SummaryMode;
  /** `chars`: the `*_chars` sizes are characters of the entries, as in Augment (seed 000 §1.3); `tokens`: they are read as tokens of the selected counter. Default chars. */
  sizeUnit: SizeUnit;
  /** `turn`: an exchange is a user turn (cuts never split a tool call from its result); `iteration`: one model request, as Augment stores it (the summary node carries the cut-off tool calls). Default turn. */
  exchangeUnit: ExchangeUnit;
  /** The agent's long-term memories, one per line, oldest first (A11). Default empty (nothing to compress). */
  memories: string;
  /** Memories are compressed when they have more lines than this. Default 100 lines (the seed names `maxLines` without a value). */
  memoriesMaxLines: number;
  /** Prompt file id of the memories compression prompt; empty skips compression (§6.4.1). Default `augment-memories-compression`. */
  compressionPrompt: string;
  /** Lines the compressed memories should have, recent ones included. Default 50 lines (§6.4.1). */
  compressionTarget: number;
  /** The most recent memories kept verbatim. Default 10 lines (§6.4.1). */
  numRecentMemoriesToKeep: number;
}

const CHARS_MAX = 1_000_000_000;
const MS_MAX = 7 * 24 * 3_600_000;

export const AUGMENT_OPTIONS: readonly OptionSpec[] = [
  { name: 'enabled', alias: 'is_history_summary_enabled', type: 'boolean', default: true, description: 'isHistorySummaryEnabled: when false every summary node is removed and the whole history is sent.' },
  { name: 'triggerOnHistorySizeChars', alias: 'trigger_on_history_size_chars', type: 'integer', default: 50_000, min: 0, max: CHARS_MAX, unit: 'chars', description: 'Summarize before an agent-loop iteration once the history is this large; 0 disables.' },
  { name: 'triggerOnHistorySizeCharsWhenCacheExpiring', alias: 'trigger_on_history_size_chars_when_cache_expiring', type: 'integer', default: 30_000, min: 0, max: CHARS_MAX, unit: 'chars', description: 'Threshold when the prompt cache is about to expire; 0 disables the cache-expiry trigger.' },
  { name: 'historyTailSizeCharsToExclude', alias: 'history_tail_size_chars_to_exclude', type: 'integer', default: 5_000, min: 0, max: CHARS_MAX, unit: 'chars', description: 'The newest history of about this size is never summarized.' },
  { name: 'minTailExchanges', alias: 'min_tail_exchanges', type: 'integer', default: 1, min: 0, max: 100_000, unit: 'exchanges', description: 'At least this many newest exchanges stay verbatim.' },
  { name: 'prompt', alias: 'prompt', type: 'string', default: SUMMARY_PROMPT_ID, description: 'Prompt file (prompts/<id>.md) that asks for the summary; empty disables summarization.' },
  { name: 'cacheTTLMs', alias: 'cache_ttl_ms', type: 'integer', default: 300_000, min: 0, max: MS_MAX, unit: 'ms', description: 'Prompt cache time to live.' },
  { name: 'bufferTimeBeforeCacheExpirationMs', alias: 'buffer_time_before_cache_expiration_ms', type: 'integer', default: 30_000, min: 0, max: MS_MAX, unit: 'ms', description: 'The cache-expiry trigger fires this long before the cache expires.' },
  { name: 'summaryNodeRequestMessageTemplate', alias: 'summary_node_request_message_template', type: 'text', default: SUPERVISOR_TEMPLATE, description: 'Summary node text with {summary} and {abridged_history}; without {summary} the default is used.' },
  { name: 'summaryNodeResponseMessage', alias: 'summary_node_response_message', type: 'string', default: SUMMARY_NODE_RESPONSE, description: 'The fixed assistant reply after the summary node.' },
  { name: 'totalCharsLimit', alias: 'total_chars_limit', type: 'integer', default: 10_000, min: 0, max: CHARS_MAX, unit: 'chars', description: 'Abridged history: all exchanges together, newest first.' },
  { name: 'userMessageCharsLimit', alias: 'user_message_chars_limit', type: 'integer', default: 1_000, min: 1, max: CHARS_MAX, unit: 'chars', description: 'Abridged history: one user message, middle truncated.' },
  { name: 'agentResponseCharsLimit', alias: 'agent_response_chars_limit', type: 'integer', default: 2_000, min: 1, max: CHARS_MAX, unit: 'chars', description: 'Abridged history: one agent response, middle truncated.' },
  { name: 'actionCharsLimit', alias: 'action_chars_limit', type: 'integer', default: 200, min: 1, max: CHARS_MAX, unit: 'chars', description: 'Abridged history: one file path or command, middle truncated.' },
  { name: 'numFilesModifiedLimit', alias: 'num_files_modified_limit', type: 'integer', default: 10, min: 0, max: 10_000, unit: 'files', description: 'Abridged history: files modified listed per exchange.' },
  { name: 'numFilesCreatedLimit', alias: 'num_files_created_limit', type: 'integer', default: 10, min: 0, max: 10_000, unit: 'files', description: 'Abridged history: files created listed per exchange.' },
  { name: 'numFilesDeletedLimit', alias: 'num_files_deleted_limit', type: 'integer', default: 10, min: 0, max: 10_000, unit: 'files', description: 'Abridged history: files deleted listed per exchange.' },
  { name: 'numFilesViewedLimit', alias: 'num_files_viewed_limit', type: 'integer', default: 10, min: 0, max: 10_000, unit: 'files', description: 'Abridged history: files viewed listed per exchange.' },
  { name: 'numTerminalCommandsLimit', alias: 'num_terminal_commands_limit', type: 'integer', default: 10, min: 0, max: 10_000, unit: 'commands', description: 'Abridged history: terminal commands listed per exchange.' },
  { name: 'historySummaryVersion', alias: 'history_summary_version', type: 'integer', default: 3, min: 1, max: 1_000_000, description: 'Version stamped on summary nodes; summaries of other versions are filtered out.' },
  { name: 'summaryMode', alias: 'summary_mode', type: 'enum', default: 'replace', values: ['replace', 'nested'], description: 'replace: the old summary is dropped (Augment); nested: it is input to the new summary.' },
  { name: 'sizeUnit', alias: 'size_unit', type: 'enum', default: 'chars', values: ['chars', 'tokens'], description: 'Unit of the *_chars sizes: characters, as Augment counts them, or tokens of the selected counter.' },
  { name: 'exchangeUnit', alias: 'exchange_unit', type: 'enum', default: 'turn', values: ['turn', 'iteration'], description: 'An exchange is a whole user turn, or one model request as Augment stores it.' },
  { name: 'memories', alias: 'agent_memories', type: 'text', default: '', description: 'Long-term memories, one per line, oldest first; compressed when too long.' },
  { name: 'memoriesMaxLines', alias: 'max_lines', type: 'integer', default: 100, min: 1, max: 1_000_000, unit: 'lines', description: 'Memories longer than this are compressed.' },
  { name: 'compressionPrompt', alias: 'compression_prompt', type: 'string', default: MEMORIES_PROMPT_ID, description: 'Prompt file that compresses memories; empty skips compression.' },
  { name: 'compressionTarget', alias: 'compression_target', type: 'integer', default: 50, min: 1, max: 1_000_000, unit: 'lines', description: 'Lines the compressed memories should have.' },
  { name: 'numRecentMemoriesToKeep', alias: 'num_recent_memories_to_keep', type: 'integer', default: 10, min: 0, max: 1_000_000, unit: 'lines', description: 'The most recent memories kept verbatim.' },
];

/**
 * Augment's own code defaults (`jp`, §8.1) as the feature flag's JSON: every trigger off and no
 * prompt, so summarization never runs until the backend configures it.
 */
export const AUGMENT_CODE_DEFAULTS: Readonly<Record<string, unknown>> = Object.freeze({
  trigger_on_history_size_chars: 0,
  history_tail_size_chars_to_exclude: 0,
  trigger_on_history_size_chars_when_cache_expiring: 0,
  prompt: '',
  cache_ttl_ms: 0,
  buffer_time_before_cache_expiration_ms: 0,
});

/** Nested objects of the feature flag JSON whose keys are options of their own. */
const NESTED = ['abridged_history_params', 'abridgedHistoryParams', 'memories_params', 'memoriesParams'];
/** Whole-JSON carriers: the feature flag's own names for the params string. */
const CARRIERS = ['history_summary_params', 'historySummaryParams'];

/** Flattens the feature flag's shape (nested param objects, the JSON string carrier) into option keys. */
function flatten(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (CARRIERS.includes(key) && typeof value === 'string') {
      Object.assign(out, flatten(parseParamsJson(value, key)));
    } else if (NESTED.includes(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      Object.assign(out, flatten(value as Record<string, unknown>));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** The params string of the feature flag (`history_summary_params`) as raw options. */
export function parseParamsJson(json: string, name = 'history_summary_params'): Record<string, unknown> {
  if (json.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new OptionError(name, `${name} is not valid JSON (${(error as Error).message}); expected an object like {"trigger_on_history_size_chars": 50000}.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OptionError(name, `${name} must be a JSON object like {"trigger_on_history_size_chars": 50000}.`);
  }
  return value as Record<string, unknown>;
}

/** A prompt option names a file in prompts/, so it can be neither prompt text nor a path. */
const PROMPT_ID = /^[a-z0-9][a-z0-9._-]*$/i;

/**
 * Earlier names of the size units, in stored comparisons and scripts: `counter` was the token unit,
 * `auto` meant tokens whenever an exact tokenizer was selected; both are read by the seed's rule now
 * (characters unless tokens are asked for), so `auto` is characters.
 */
const SIZE_UNIT_NAMES: Readonly<Record<string, SizeUnit>> = { counter: 'tokens', auto: 'chars' };

/** Raw values (camelCase or the feature flag's snake_case, nested or as a JSON string) to typed options. */
export function parseAugmentOptions(raw: Record<string, unknown> = {}): AugmentOptions {
  const flat = flatten(raw);
  for (const key of ['sizeUnit', 'size_unit']) {
    const value = flat[key];
    if (typeof value === 'string' && SIZE_UNIT_NAMES[value] !== undefined) flat[key] = SIZE_UNIT_NAMES[value];
  }
  const options = parseOptions(AUGMENT_OPTIONS, flat) as AugmentOptions;
  for (const name of ['prompt', 'compressionPrompt'] as const) {
    const value = options[name].trim();
    if (value !== '' && !PROMPT_ID.test(value)) {
      throw new OptionError(name, `Option ${name} names a prompt file in prompts/ (e.g. "${name === 'prompt' ? SUMMARY_PROMPT_ID : MEMORIES_PROMPT_ID}"), not prompt text; edit that file to change the wording. Got ${JSON.stringify(value.slice(0, 40))}${value.length > 40 ? '…' : ''}.`);
    }
    options[name] = value;
  }
  return options;
}

/** The supervisor template to use, and the error to show when the configured one lacks `{summary}` (§8.2). */
export function effectiveTemplate(options: AugmentOptions): { template: string; error?: string } {
  const template = options.summaryNodeRequestMessageTemplate;
  if (template.includes('{summary}')) return { template };
  return {
    template: SUPERVISOR_TEMPLATE,
    error: 'summaryNodeRequestMessageTemplate must contain {summary}; the default <supervisor> template is used instead (as Augment does, §8.2).',
  };
}
