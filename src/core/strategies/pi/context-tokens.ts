/**
 * How big pi thinks the context is (P9), as pi's `estimateContextTokens` does it: the usage the
 * provider recorded on the last successful reply (prompt + output: the next prompt holds both),
 * plus an estimate of the entries after that reply; the estimate alone only where no reply recorded
 * usage. The estimate is the counter the user picked (pi's own is chars/4 with images at 1,200).
 * Where the caller gives the unseen prefix (a replay, a plan next to a gauge), the context is counted
 * as every other strategy's: the counter over the context plus that prefix, so pi's trigger reads
 * the size the chart shows and not a recorded usage of another tokenizer.
 */
import type { CompactionInput } from '../../compaction/types.ts';
import type { Entry } from '../../journal/entry.ts';
import { currentContextTokens, type Boundary } from './boundary.ts';
import { piBranchFacts } from './branch-facts.ts';
import { groupDigits } from './options.ts';
import { unseenTokens } from '../../compaction/unseen-prefix.ts';

export interface PiContextCount {
  tokens: number;
  /**
   * 'usage': last recorded usage + the counter after it; 'counter': the counter over the whole
   * context; 'sent': the counter over the context plus the unseen prefix the caller gave.
   */
  source: 'usage' | 'counter' | 'sent';
  /** The recorded usage's share (0 with source 'counter'). */
  usageTokens: number;
  /** Counted with input.counter: the entries after the usage, or everything. */
  estimatedTokens: number;
  /** Index of the reply whose usage was read. */
  usageIndex?: number;
  /** What was counted, for the trigger detail ("usage of e12 + chars/4 for 3 entries after it"). */
  label: string;
  /** Why, in a sentence for the plan's notes. */
  note: string;
}

/** A reply whose usage pi trusts: an assistant message that was neither aborted nor an error (those have no valid usage). */
function usageOf(entry: Entry): number | undefined {
  if (entry.role !== 'assistant' || entry.kind !== 'message' || !entry.usage) return undefined;
  if (entry.flags?.aborted || entry.flags?.error || entry.flags?.synthetic) return undefined;
  return entry.usage.input + entry.usage.output;
}

export function piContextTokens(input: CompactionInput, boundary: Boundary): PiContextCount {
  const { entries, tokens, counter } = input;
  const counted = (note: string): PiContextCount => {
    const all = currentContextTokens(input, boundary);
    return { tokens: all, source: 'counter', usageTokens: 0, estimatedTokens: all, label: counter.label, note };
  };
  if (input.unseenPrefixTokens !== undefined) {
    const transcript = currentContextTokens(input, boundary);
    const unseen = unseenTokens(input);
    return {
      tokens: transcript + unseen, source: 'sent', usageTokens: 0, estimatedTokens: transcript,
      label: unseen > 0 ? `${counter.label} + ${groupDigits(unseen)} not in the transcript` : counter.label,
      note: `Context counted as sent: ${groupDigits(transcript)} ${counter.label} tokens of the transcript + ${groupDigits(unseen)} not in it (system prompt, tool definitions), the size every strategy and the chart read.`,
    };
  }
  // Usage recorded after a compaction the source agent never made describes the source's own,
  // larger context (pi likewise ignores usage from before its latest compaction).
  if (input.previous) return counted(`Context counted with ${counter.label}: the usage the source recorded after the previous compaction describes its own, uncompacted context.`);
  // The newest reply with usage pi trusts, from the branch's facts (no walk back over the history).
  const i = piBranchFacts(entries).trustedAtOrBefore(entries.length - 1);
  const usage = i >= boundary.start ? usageOf(entries[i]!) : undefined;
  if (usage !== undefined) {
    const after = entries.length - 1 - i;
    const estimated = after > 0 ? tokens.range(i + 1, entries.length - 1) : 0;
    const label = `usage of ${entries[i]!.id} + ${counter.label} for ${after} entr${after === 1 ? 'y' : 'ies'} after it`;
    return {
      tokens: usage + estimated, source: 'usage', usageTokens: usage, estimatedTokens: estimated, usageIndex: i, label,
      note: `Context counted as pi does: the usage recorded on ${entries[i]!.id} (${groupDigits(entries[i]!.usage!.input)} prompt + ${groupDigits(entries[i]!.usage!.output)} output tokens) plus ${groupDigits(estimated)} ${counter.label} tokens for the ${after} entr${after === 1 ? 'y' : 'ies'} after it.`,
    };
  }
  return counted(`Context counted with ${counter.label}: no successful reply recorded its usage.`);
}
