/**
 * pi's end-of-run decision (P1) as pure functions: after a run, skip when the user aborted,
 * compact and retry when the model's context overflowed, skip on any other error, and compact
 * (without retry) when contextTokens > contextWindow - reserveTokens.
 */
import { entryText, type Entry } from '../../journal/entry.ts';
import { groupDigits } from './options.ts';

/** How the last assistant reply of a run ended (pi's `stopReason`). */
export type StopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';

export interface RunEnd {
  stopReason: StopReason;
  /** The provider's error text when stopReason is 'error'. */
  errorMessage?: string;
  /** Model that produced the reply. */
  model?: string;
  /** Prompt tokens the provider reported for the reply (for overflows a provider accepts silently). */
  inputTokens?: number;
}

export type CompactRule = 'disabled' | 'aborted' | 'overflow' | 'error' | 'threshold' | 'below-threshold';

export interface CompactDecisionArgs {
  /** The last reply of the run; undefined when the branch has none yet. */
  runEnd: RunEnd | undefined;
  /** The model now selected; an overflow reported by another model does not trigger. Undefined: the reply's model. */
  currentModel?: string;
  /** Tokens of the current context (summary + kept entries), in `counterLabel`'s unit. */
  contextTokens: number;
  contextWindow: number;
  reserveTokens: number;
  enabled: boolean;
  /** Which counter produced contextTokens, named in the detail ("chars/4", "o200k_base"). */
  counterLabel?: string;
}

export interface CompactDecision {
  compact: boolean;
  /** Continue the run automatically after compacting (overflow only). */
  retry: boolean;
  /** Leave the overflowing reply out of the compacted context (pi removes it before the retry). */
  dropErrorReply: boolean;
  rule: CompactRule;
  /** What decided, with the numbers: "contextTokens 183,402 > 200,000 - 16,384 (counted with chars/4)". */
  detail: string;
}

// Provider wordings for "the prompt does not fit" (Anthropic, OpenAI, Gemini, xAI, Groq, OpenRouter,
// Bedrock, llama.cpp, LM Studio, Mistral, Copilot, ...), grouped into a few expressions.
const OVERFLOW_TEXT = [
  /prompt is too long|input is too long|too many tokens|token limit exceeded|context[_ ]length[_ ]exceeded/i,
  /exceeds? the (context window|available context size|limit of \d+)|context window exceeds limit/i,
  /maximum (context length|prompt length) is \d+|input token count.*exceeds the maximum/i,
  /reduce the length of the messages|greater than the context length|exceeded model token limit/i,
  /too large for model with \d+ maximum context length/i,
  /^4(00|13)\s*(status code)?\s*\(no body\)/i,
];

/** True when a reply says the context did not fit: an error with a provider's overflow wording, or a prompt larger than the window that was accepted anyway. */
export function isContextOverflow(runEnd: RunEnd, contextWindow?: number): boolean {
  if (runEnd.stopReason === 'error' && runEnd.errorMessage) {
    const message = runEnd.errorMessage;
    if (OVERFLOW_TEXT.some((pattern) => pattern.test(message))) return true;
  }
  return runEnd.stopReason === 'stop' && contextWindow !== undefined && runEnd.inputTokens !== undefined && runEnd.inputTokens > contextWindow;
}

/** The end-of-run decision, in pi's order (seed 001 §3 flowchart). */
export function shouldCompact(args: CompactDecisionArgs): CompactDecision {
  const threshold = args.contextWindow - args.reserveTokens;
  const counted = args.counterLabel ? ` (counted with ${args.counterLabel})` : '';
  const numbers = `${groupDigits(args.contextTokens)} ${args.contextTokens > threshold ? '>' : '<='} ${groupDigits(args.contextWindow)} - ${groupDigits(args.reserveTokens)}`;
  const skip = (rule: CompactRule, detail: string): CompactDecision => ({ compact: false, retry: false, dropErrorReply: false, rule, detail });
  if (!args.enabled) return skip('disabled', 'Auto-compaction is off (enabled = false); compact by hand if needed.');
  const end = args.runEnd;
  if (end?.stopReason === 'aborted') return skip('aborted', 'The run was aborted by the user: no compaction.');
  const sameModel = args.currentModel === undefined || end?.model === undefined || end.model === args.currentModel;
  if (end && sameModel && isContextOverflow(end, args.contextWindow)) {
    const why = end.stopReason === 'error' ? `"${clip(end.errorMessage ?? '', 80)}"` : `the reply's prompt of ${groupDigits(end.inputTokens ?? 0)} tokens exceeds the window`;
    return {
      compact: true,
      retry: true,
      dropErrorReply: true,
      rule: 'overflow',
      detail: `Context overflow on ${end.model ?? 'the current model'} (${why}): drop that reply, compact, retry.`,
    };
  }
  if (end?.stopReason === 'error') return skip('error', 'The run ended in an error that is not a context overflow: no compaction (an error reply has no usage to go by).');
  if (args.contextTokens > threshold) {
    return { compact: true, retry: false, dropErrorReply: false, rule: 'threshold', detail: `contextTokens ${numbers}${counted}` };
  }
  return skip('below-threshold', `contextTokens ${numbers}${counted}: no compaction needed.`);
}

/** The run end pi would look at: the last assistant reply of the branch. */
export function lastRunEnd(entries: readonly Entry[]): { index: number; runEnd: RunEnd } | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.role !== 'assistant' || entry.kind !== 'message') continue;
    const hasCalls = entry.blocks.some((block) => block.type === 'tool_call');
    const stopReason: StopReason = entry.flags?.aborted ? 'aborted' : entry.flags?.error ? 'error' : hasCalls ? 'toolUse' : 'stop';
    const runEnd: RunEnd = {
      stopReason,
      ...(stopReason === 'error' ? { errorMessage: entryText(entry) } : {}),
      ...(entry.model !== undefined ? { model: entry.model } : {}),
      ...(entry.usage !== undefined ? { inputTokens: entry.usage.input } : {}),
    };
    return { index: i, runEnd };
  }
  return undefined;
}

function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
