import { describe, expect, it } from 'vitest';
import { runCompaction } from '../../core/compaction/run.ts';
import type { Strategy } from '../../core/compaction/strategy.ts';
import { SummaryTimeoutError } from '../../core/compaction/summarizer.ts';
import { codingTurn as turn, linkEntries, makeEntries, makeInput } from '../../core/compaction/testing.ts';
import type { CompactionInput } from '../../core/compaction/types.ts';
import { compactionEntry, piStrategy } from '../../core/strategies/pi.ts';
import { AuthError, ContextOverflowError, OverloadedError, StreamError } from './errors.ts';
import { createOpenAISummarizer } from './openai.ts';
import { openAIErrorBody, openAIStream } from './test-server.ts';
import { useFakeServer } from './test-fixtures.ts';
import { loadPrompts } from '../../cli/load.ts';
import { SUMMARIZER_SYSTEM_PROMPT } from './presets.ts';
import { CancelledError } from '../../core/cancel.ts';

const prompts = loadPrompts();
const strategy = piStrategy as unknown as Strategy;
const raw = { keepRecentTokens: 1400 };

const input = () => makeInput(linkEntries(makeEntries([...turn(1, 'read', 'a.ts'), ...turn(2, 'edit', 'b.ts'), ...turn(3, 'read', 'c.ts')])));

const server = useFakeServer();

const summarizer = () => createOpenAISummarizer({
  baseUrl: `${server.url}/v1`, model: 'gpt-4o-mini', apiKey: 'sk-test-key-0000000000', systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
  retry: { sleep: () => Promise.resolve(), random: () => 0 },
});

/** Runs pi over a frozen copy check: the input entries must be deep-equal afterwards, whatever happened. */
async function run(compactionInput: CompactionInput, extra: { signal?: AbortSignal; timeoutMs?: number } = {}) {
  const before = structuredClone(compactionInput.entries);
  const result = await runCompaction({ strategy, input: compactionInput, rawOptions: raw, summarizer: summarizer(), prompts, ...extra }).then(
    (outcome) => ({ outcome, error: undefined }),
    (error: unknown) => ({ outcome: undefined, error }),
  );
  expect(compactionInput.entries).toEqual(before);
  return result;
}

describe('runCompaction + piStrategy + the OpenAI summarizer over HTTP', () => {
  it('summarizes through the server and records its usage and model', async () => {
    server.reply({ events: openAIStream(['## Goal\n', 'Finish tasks 1-3.'], { usage: { prompt_tokens: 2600, completion_tokens: 8 } }) });
    const { outcome, error } = await run(input());
    expect(error).toBeUndefined();
    const sent = (server.requests[0]!.body as { messages: Array<{ content: string }> }).messages[1]!.content;
    expect(sent).toMatch(/^<conversation-\d{24}>\n\[user\]: task 1/);
    expect(sent).toContain('## Key Decisions');
    expect(compactionEntry(outcome!)!.summary.startsWith('## Goal\nFinish tasks 1-3.\n\n<read-files>\na.ts\n</read-files>')).toBe(true);
    expect(outcome!.record).toMatchObject({ summarizer: 'openai', summarizer_model: 'gpt-4o-mini-2024-07-18', summary_usage: { input: 2600, output: 8 }, summary_applied: true });
  });

  it.each([
    ['a wrong key', [{ status: 401, json: openAIErrorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key') }], AuthError],
    ['an overloaded server', Array.from({ length: 4 }, () => ({ status: 503, text: 'busy' })), OverloadedError],
    ['a cut stream', [{ events: openAIStream(['half a summ', 'ary']).slice(0, 2), cut: true }], StreamError],
    ['two overflows', Array.from({ length: 2 }, () => ({ status: 400, json: openAIErrorBody("This model's maximum context length is 8192 tokens.", 'invalid_request_error', 'context_length_exceeded') })), ContextOverflowError],
  ])('%s: the run rejects and the journal entries are unchanged', async (_name, replies, cls) => {
    server.reply(...replies);
    const { outcome, error } = await run(input());
    expect(outcome).toBeUndefined();
    expect(error).toBeInstanceOf(cls);
  });

  it('a timeout: SummaryTimeoutError, entries unchanged', async () => {
    server.reply({ events: openAIStream(Array.from({ length: 30 }, () => 'slow ')), delayMs: 100 });
    const { error } = await run(input(), { timeoutMs: 150 });
    expect(error).toBeInstanceOf(SummaryTimeoutError);
  });

  it('a cancel: CancelledError, entries unchanged', async () => {
    server.reply({ events: openAIStream(Array.from({ length: 30 }, () => 'slow ')), delayMs: 100 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const { error } = await run(input(), { signal: controller.signal });
    expect(error).toBeInstanceOf(CancelledError);
  });
});
