/**
 * The summaries of a session driven by a script: the offline summarizer's, each arriving after
 * the script's `summaryDelayMs`, so a scripted demo shows what a real model's summary looks like
 * while it is made: the input blocked, the compaction's progress (L11). Stop ends the wait at once.
 */
import { compactionCancelled, type Summarizer } from '../compaction/summarizer.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { parseScript } from './scripted-model.ts';

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(compactionCancelled());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}

/** The summarizer for `script` (parsed JSON; a bad script throws ScriptFormatError, as the model does). */
export function scriptedSummarizer(script: unknown): Summarizer {
  const offline = createOfflineSummarizer();
  const delayMs = parseScript(script).summaryDelayMs ?? 0;
  if (delayMs === 0) return offline;
  return {
    ...offline,
    async summarize(request) {
      await wait(delayMs, request.signal);
      return offline.summarize(request);
    },
  };
}
