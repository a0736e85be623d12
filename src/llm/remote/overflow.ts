/**
 * What a provider does when the summarizer's own input overflows the model (as Codex does for its
 * compaction request): drop the oldest part of the transcript inside the prompt and ask once more.
 * The instructions around the transcript, and its newest part, are kept.
 */
import type { SummaryRequest, SummaryResponse } from '../../core/compaction/summarizer.ts';
import { ContextOverflowError } from './errors.ts';

/** Share of the transcript's lines dropped (oldest first) before the single retry. */
export const OVERFLOW_DROP_SHARE = 0.5;

/** Calls `summarize`; on ContextOverflowError retries once with the oldest half of the transcript dropped. */
export async function withOverflowRetry(
  summarize: (request: SummaryRequest) => Promise<SummaryResponse>,
  request: SummaryRequest,
): Promise<SummaryResponse> {
  try {
    return await summarize(request);
  } catch (error) {
    if (!isOverflow(error)) throw error;
    const shorter = dropOldestTranscript(request.prompt);
    if (!shorter) throw error;
    try {
      return await summarize({ ...request, prompt: shorter.prompt, serialized: shorter.transcript });
    } catch (second) {
      if (!(second instanceof ContextOverflowError)) throw second;
      const again = new ContextOverflowError(
        { id: second.provider, label: second.providerLabel, model: second.model, baseUrl: '' },
        second.status, second.detail, { ...(second.code ? { code: second.code } : {}), afterTruncation: true },
      );
      again.attempts = (error instanceof ContextOverflowError ? error.attempts : 1) + second.attempts;
      throw again;
    }
  }
}

/** Ours, or another summarizer's error of the same name (WebLLM's). */
function isOverflow(error: unknown): error is Error {
  return error instanceof ContextOverflowError || (error instanceof Error && error.name === 'ContextOverflowError');
}

/** The transcript block in a prompt: `<conversation…>\n … \n</conversation…>` as wrapTranscript writes it. */
export function findTranscript(prompt: string): { start: number; end: number } | undefined {
  let best: { start: number; end: number } | undefined;
  for (const match of prompt.matchAll(/<(conversation(?:-\d+)?)>\n/g)) {
    const start = match.index + match[0].length;
    const end = prompt.lastIndexOf(`\n</${match[1]}>`);
    if (end >= start && (!best || end - start > best.end - best.start)) best = { start, end };
  }
  return best;
}

/**
 * The prompt with the oldest ~half of the transcript's lines replaced by a one-line note (a
 * transcript of one line loses the first half of its characters). Undefined when there is no
 * transcript block or nothing left to drop.
 */
export function dropOldestTranscript(prompt: string, share = OVERFLOW_DROP_SHARE): { prompt: string; transcript: string; droppedLines: number } | undefined {
  const block = findTranscript(prompt);
  if (!block) return undefined;
  const inner = prompt.slice(block.start, block.end);
  const lines = inner.split('\n');
  let kept: string;
  let droppedLines: number;
  if (lines.length >= 2) {
    droppedLines = Math.max(1, Math.floor(lines.length * share));
    const rest = lines.slice(droppedLines);
    while (rest.length > 1 && rest[0]!.trim() === '') {
      rest.shift();
      droppedLines++;
    }
    kept = rest.join('\n');
  } else {
    if (inner.length < 2) return undefined;
    droppedLines = 0;
    kept = inner.slice(Math.floor(inner.length * share));
  }
  const note = droppedLines > 0
    ? `[… the oldest ${droppedLines} lines of this conversation were left out: they did not fit the model's context window]`
    : `[… the oldest part of this conversation was left out: it did not fit the model's context window]`;
  const transcript = `${note}\n${kept}`;
  return { prompt: prompt.slice(0, block.start) + transcript + prompt.slice(block.end), transcript, droppedLines };
}
