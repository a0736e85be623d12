// A script's summaryDelayMs paces its session's offline summaries (so a demo shows the compaction
// blocking the input, L11); Stop ends the wait; a bad value is refused with the field named.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SummaryRequest } from '../compaction/summarizer.ts';
import { ScriptFormatError } from './scripted-model.ts';
import { scriptedSummarizer } from './scripted-summarizer.ts';
import { CancelledError } from '../cancel.ts';

const request = (signal: AbortSignal): SummaryRequest => ({
  taskId: 't', promptId: 'pi-summary', prompt: 'Summarize.', entries: [], serialized: '', vars: {}, maxTokens: 100, signal,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('scriptedSummarizer', () => {
  it('answers after summaryDelayMs, with the offline summary', async () => {
    vi.useFakeTimers();
    const summarizer = scriptedSummarizer({ summaryDelayMs: 2000, steps: [{ text: 'hi' }] });
    let done = false;
    const reply = summarizer.summarize(request(new AbortController().signal)).then((r) => {
      done = true;
      return r;
    });
    await vi.advanceTimersByTimeAsync(1999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect((await reply).text).toBe((await scriptedSummarizer([{ text: 'hi' }]).summarize(request(new AbortController().signal))).text);
  });

  it('ends the wait at once when stopped', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const reply = scriptedSummarizer({ summaryDelayMs: 60_000, steps: [{ text: 'hi' }] }).summarize(request(controller.signal));
    controller.abort();
    await expect(reply).rejects.toBeInstanceOf(CancelledError);
  });

  it('is the plain offline summarizer without a delay, and refuses a bad one', () => {
    expect(scriptedSummarizer([{ text: 'hi' }]).id).toBe('offline');
    expect(() => scriptedSummarizer({ summaryDelayMs: -1, steps: [{ text: 'hi' }] })).toThrow(ScriptFormatError);
    expect(() => scriptedSummarizer({ summaryDelayMs: 'soon', steps: [{ text: 'hi' }] })).toThrow('script: "summaryDelayMs" must be a number of milliseconds >= 0; got "soon"');
  });
});
