/**
 * P7, pi's branch summary: when the session moves to another branch, the entries of the branch it
 * leaves — from its leaf back to the common ancestor with the target — are summarized once
 * (prompts/branch-summary.md, pi's wording) and the summary is placed where the new branch
 * continues, with pi's preamble and the files the abandoned branch read or modified.
 */
import { getPrompt, renderTemplate, type PromptLibrary } from '../compaction/prompts.ts';
import { DEFAULT_SUMMARY_TIMEOUT_MS } from '../compaction/run.ts';
import { serializeEntries, wrapTranscript } from '../compaction/serialize.ts';
import { compactionCancelled, SummaryTimeoutError, type Summarizer } from '../compaction/summarizer.ts';
import type { Entry } from '../journal/entry.ts';
import { cumulativeFileLists, formatFileSections } from '../strategies/pi/file-lists.ts';
import { pathOf } from './branch-context.ts';

export const BRANCH_SUMMARY_PROMPT_ID = 'branch-summary';
/** Prompt file of pi's preamble (prompts/branch-summary-preamble.md), so the model reads the summary as a branch it left. */
export const BRANCH_SUMMARY_PREAMBLE_ID = 'branch-summary-preamble';

/** pi's preamble from its prompt file, followed by the blank line before the summary. */
export function branchSummaryPreamble(prompts: PromptLibrary): string {
  return `${getPrompt(prompts, BRANCH_SUMMARY_PREAMBLE_ID).trim()}\n\n`;
}
/** Output budget of a branch summary (pi: 2,048). Unit: tokens. */
export const BRANCH_SUMMARY_MAX_TOKENS = 2048;

export interface Abandoned {
  /** Deepest entry on both paths (null: the paths share no entry). */
  ancestorId: string | null;
  /** The abandoned entries, oldest first (from below the ancestor to the old leaf). */
  entries: Entry[];
}

/** The part of the old branch a move from `oldLeafId` to `targetId` leaves behind. */
export function abandonedPart(oldLeafId: string | null, targetId: string | null, byId: (id: string) => Entry | undefined): Abandoned {
  const oldPath = pathOf(oldLeafId, byId);
  const target = new Set(pathOf(targetId, byId).map((entry) => entry.id));
  let split = oldPath.length;
  for (let i = oldPath.length - 1; i >= 0; i--) {
    if (target.has(oldPath[i]!.id)) break;
    split = i;
  }
  const ancestor = oldPath[split - 1];
  return { ancestorId: ancestor?.id ?? null, entries: oldPath.slice(split) };
}

export interface BranchSummaryArgs {
  entries: readonly Entry[];
  summarizer: Summarizer;
  prompts: PromptLibrary;
  signal: AbortSignal;
  /** Ms before the summary is given up (default 120 s, as for compaction summaries). */
  timeoutMs?: number;
}

export interface BranchSummaryText {
  text: string;
  readFiles: string[];
  modifiedFiles: string[];
}

/** The summary of the abandoned entries; rejects with SummaryTimeoutError, CancelledError or the summarizer's error. */
export async function summarizeBranch(args: BranchSummaryArgs): Promise<BranchSummaryText> {
  const serialized = serializeEntries(args.entries);
  const prompt = renderTemplate(getPrompt(args.prompts, BRANCH_SUMMARY_PROMPT_ID), { conversation: wrapTranscript(serialized) });
  const timeoutMs = args.timeoutMs ?? DEFAULT_SUMMARY_TIMEOUT_MS;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new SummaryTimeoutError(timeoutMs)), timeoutMs);
  const signal = AbortSignal.any([args.signal, timeout.signal]);
  try {
    const pending = args.summarizer.summarize({
      taskId: BRANCH_SUMMARY_PROMPT_ID, promptId: BRANCH_SUMMARY_PROMPT_ID, prompt, entries: args.entries, serialized,
      vars: {}, maxTokens: BRANCH_SUMMARY_MAX_TOKENS, signal,
    });
    const stopped = new Promise<never>((_, reject) => {
      const fail = () => reject(args.signal.aborted ? compactionCancelled() : new SummaryTimeoutError(timeoutMs));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
    const response = await Promise.race([pending, stopped]);
    return branchSummaryOf(response.text, args.entries, args.prompts);
  } finally {
    clearTimeout(timer);
  }
}

/** A branch summary from its body (the summarizer's, or one a `before-fork` hook wrote): pi's preamble, the body, the files the entries read or modified. */
export function branchSummaryOf(body: string, entries: readonly Entry[], prompts: PromptLibrary): BranchSummaryText {
  const lists = cumulativeFileLists({ readFiles: [], modifiedFiles: [] }, entries);
  return { text: `${branchSummaryPreamble(prompts)}${body.trim() || 'No summary generated'}${formatFileSections(lists)}`, ...lists };
}
