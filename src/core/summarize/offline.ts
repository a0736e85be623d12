/**
 * The offline summarizer: no model, deterministic and fast. It ignores the prompt text and fills
 * the template the prompt id names with facts extracted from the entries, merging an earlier
 * summary (update / nested modes) so nothing it recorded is lost. The app's default summarizer.
 */
import { unwrapTranscript } from '../compaction/serialize.ts';
import type { Summarizer, SummaryRequest, SummaryResponse } from '../compaction/summarizer.ts';
import { type Digest, digestFromFacts, mergeDigests } from './digest.ts';
import { parseSummary } from './parse-summary.ts';
import { extractFacts } from './extract.ts';
import { compressMemories, fit, memoryBlock, memoryItems, memoryLines, rank, renderTemplateText, templateFor } from './formats.ts';

export const OFFLINE_SUMMARIZER_ID = 'offline';

/** Characters per token used to turn `maxTokens` into a length cap and to report usage (chars/4). */
export const CHARS_PER_TOKEN = 4;

/** What the offline summary needs from a request (the prompt text itself is not read). */
export type OfflineRequest = Pick<SummaryRequest, 'promptId' | 'entries' | 'previousSummary' | 'vars' | 'maxTokens'>;

function positiveInt(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number.parseInt(value, 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : undefined;
}

/** Facts of the entries, updated onto the previous summary and any summaries inside the entries. */
function mergedDigest(request: OfflineRequest, usePrevious: boolean): Digest {
  const facts = extractFacts(request.entries);
  const fresh = digestFromFacts(facts);
  const earlier = [...(usePrevious && request.previousSummary?.trim() ? [request.previousSummary] : []), ...facts.priorSummaries];
  if (earlier.length === 0) return fresh;
  const base = earlier.map(parseSummary).reduce((older, newer) => mergeDigests(older, newer));
  return mergeDigests(base, fresh);
}

/**
 * The summary text for a request. Templates by prompt id: pi-summary / pi-update-summary (and any
 * unknown id) -> pi's structured summary; pi-turn-prefix; augment-summary;
 * augment-memories-compression (vars.memories, target vars.target_lines); layered-archived-summary;
 * budget-memory-block (vars.max_lines, vars.max_chars). `maxTokens` caps the length at about
 * maxTokens * 4 characters, file lists excepted.
 */
export function offlineSummaryText(request: OfflineRequest): string {
  const template = templateFor(request.promptId);
  const budget = request.maxTokens !== undefined && request.maxTokens > 0 ? request.maxTokens * CHARS_PER_TOKEN : undefined;
  const vars = request.vars;
  if (template === 'augment-memories-compression') {
    const source = vars.memories ?? vars.agent_memories ?? vars.memory ?? request.previousSummary
      ?? memoryItems(mergedDigest(request, false)).map((item) => item.text).join('\n');
    // The prompt wraps the memories in tags: those are the frame, never a memory.
    const recent = memoryLines(unwrapTranscript(vars.recent_memories ?? ''));
    const lines = compressMemories(unwrapTranscript(source), positiveInt(vars.target_lines ?? vars.compression_target), recent);
    return fit([{ items: lines.map((line, index) => ({ text: `- ${line}`, priority: rank(0, index, lines.length) })) }], budget);
  }
  if (template === 'budget-memory-block') {
    const maxChars = positiveInt(vars.max_chars);
    const cap = maxChars !== undefined && budget !== undefined ? Math.min(maxChars, budget) : (maxChars ?? budget);
    return memoryBlock(mergedDigest(request, true), positiveInt(vars.max_lines), cap);
  }
  // A turn prefix stands alone: pi never gives it an earlier summary.
  return renderTemplateText(template, mergedDigest(request, template !== 'pi-turn-prefix'), budget);
}

/** The offline summarizer (id 'offline'). Rejects with the signal's reason when aborted. */
export function createOfflineSummarizer(): Summarizer {
  return {
    id: OFFLINE_SUMMARIZER_ID,
    label: 'Offline (no model)',
    // async: a thrown abort reason becomes the rejection, whatever its type.
    async summarize(request: SummaryRequest): Promise<SummaryResponse> {
      request.signal.throwIfAborted();
      const text = offlineSummaryText(request);
      request.signal.throwIfAborted();
      return {
        text,
        model: OFFLINE_SUMMARIZER_ID,
        usage: { input: Math.ceil(request.prompt.length / CHARS_PER_TOKEN), output: Math.ceil(text.length / CHARS_PER_TOKEN) },
      };
    },
  };
}
