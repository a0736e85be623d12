import { describe, expect, it } from 'vitest';
import { wrapTranscript } from '../../core/compaction/serialize.ts';
import type { SummaryRequest, SummaryResponse } from '../../core/compaction/summarizer.ts';
import { ContextOverflowError, OverloadedError, type ProviderRef } from './errors.ts';
import { dropOldestTranscript, findTranscript, withOverflowRetry } from './overflow.ts';

const ref: ProviderRef = { id: 'openai', label: 'OpenAI', model: 'small-model', baseUrl: 'http://x/v1' };
const lines = Array.from({ length: 10 }, (_, i) => `[user]: message ${i} ${'words '.repeat(20)}`);
const transcript = lines.join('\n\n');
const prompt = `${wrapTranscript(transcript)}\n\nSummarize the block above.\n`;
const request = (text = prompt): SummaryRequest => ({ taskId: 't', promptId: 'pi-summary', prompt: text, entries: [], serialized: transcript, vars: {}, signal: new AbortController().signal });

describe('dropOldestTranscript', () => {
  it('drops the oldest half of the lines inside the tags and keeps everything else', () => {
    const result = dropOldestTranscript(prompt)!;
    expect(result.prompt.startsWith('<conversation>\n[… the oldest 10 lines of this conversation were left out')).toBe(true);
    expect(result.prompt.endsWith('\n</conversation>\n\nSummarize the block above.\n')).toBe(true);
    expect(result.prompt).not.toContain('message 4');
    expect(result.prompt).toContain('[user]: message 5');
    expect(result.prompt).toContain('[user]: message 9');
    expect(result.transcript).toBe(result.prompt.slice('<conversation>\n'.length, result.prompt.indexOf('\n</conversation>')));
  });

  it('finds a lengthened tag when the transcript itself mentions <conversation>', () => {
    const tricky = 'a line about <conversation> tags\nsecond\nthird\nfourth';
    const wrapped = `Intro.\n${wrapTranscript(tricky)}\nEnd.`;
    expect(wrapped).toContain('<conversation-1>');
    const block = findTranscript(wrapped)!;
    expect(wrapped.slice(block.start, block.end)).toBe(tricky);
    const result = dropOldestTranscript(wrapped)!;
    expect(result.prompt).toMatch(/^Intro\.\n<conversation-1>\n\[… the oldest 2 lines[^\n]*\nthird\nfourth\n<\/conversation-1>\nEnd\.$/);
  });

  it('halves a one-line transcript by characters, and gives up without a block', () => {
    const one = dropOldestTranscript(`<conversation>\n${'a'.repeat(50)}${'b'.repeat(50)}\n</conversation>`)!;
    expect(one.transcript.endsWith(`\n${'b'.repeat(50)}`)).toBe(true);
    expect(dropOldestTranscript('no transcript here')).toBeUndefined();
  });
});

describe('withOverflowRetry', () => {
  const ok: SummaryResponse = { text: 'summary', model: 'm' };

  it('retries once with the shorter prompt after an overflow', async () => {
    const seen: string[] = [];
    const response = await withOverflowRetry((r) => {
      seen.push(r.prompt);
      return seen.length === 1 ? Promise.reject(new ContextOverflowError(ref, 400, 'prompt is too long')) : Promise.resolve(ok);
    }, request());
    expect(response).toBe(ok);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.length).toBeLessThan(seen[0]!.length);
  });

  it('reports a second overflow as an overflow after truncation', async () => {
    let calls = 0;
    const error = await withOverflowRetry(() => {
      calls++;
      return Promise.reject(new ContextOverflowError(ref, 400, 'prompt is too long'));
    }, request()).catch((e: unknown) => e);
    expect(calls).toBe(2);
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect((error as ContextOverflowError).afterTruncation).toBe(true);
    expect((error as Error).message).toContain('even with the oldest half of the transcript dropped');
    expect((error as Error).message).toContain('"small-model"');
  });

  it('leaves other errors, and prompts without a transcript, alone', async () => {
    const busy = new OverloadedError(ref, 529, '');
    let calls = 0;
    await expect(withOverflowRetry(() => (calls++, Promise.reject(busy)), request())).rejects.toBe(busy);
    const overflow = new ContextOverflowError(ref, 400, '');
    await expect(withOverflowRetry(() => (calls++, Promise.reject(overflow)), request('plain prompt'))).rejects.toBe(overflow);
    expect(calls).toBe(2);
  });

  it('also retries on another summarizer\'s error named ContextOverflowError (WebLLM)', async () => {
    const foreign = Object.assign(new Error('Prompt tokens exceed context window size'), { name: 'ContextOverflowError' });
    let calls = 0;
    await expect(withOverflowRetry(() => (++calls === 1 ? Promise.reject(foreign) : Promise.resolve(ok)), request())).resolves.toBe(ok);
  });
});
