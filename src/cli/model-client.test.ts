import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Summarizer, SummaryRequest } from '../core/compaction/summarizer.ts';
import { PRICES } from '../core/pricing.ts';
import { SpendLimitError } from '../llm/remote/errors.ts';
import { RequestCache } from './model-cache.ts';
import { ModelClient, RunStoppedError } from './model-client.ts';

const request = (prompt: string): SummaryRequest => ({ taskId: 't', promptId: 'pi-summary', prompt, entries: [], serialized: '', vars: {}, signal: new AbortController().signal });
const PROVIDER = { id: 'openai', label: 'Fake', model: 'gpt-4o-mini', baseUrl: 'http://127.0.0.1' };

/** A summarizer whose replies the test releases one by one, counting the calls in flight. */
function gated() {
  const pending: Array<() => void> = [];
  const state = { inFlight: 0, most: 0, calls: 0 };
  const summarizer: Summarizer = {
    id: 'fake', label: 'fake',
    summarize: async (req) => {
      state.calls++;
      state.inFlight++;
      state.most = Math.max(state.most, state.inFlight);
      await new Promise<void>((resolve) => pending.push(resolve));
      state.inFlight--;
      return { text: `reply to ${req.prompt}`, model: 'gpt-4o-mini', usage: { input: 1000, output: 100 } };
    },
  };
  return { summarizer, pending, state };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('ModelClient', () => {
  it('keeps at most `concurrency` requests in flight', async () => {
    const { summarizer, pending, state } = gated();
    const client = new ModelClient({ cache: new RequestCache(undefined, {}), concurrency: 2 });
    const wrapped = client.wrap(summarizer, 'openai|x|gpt-4o-mini', undefined);
    const all = Promise.all(Array.from({ length: 5 }, (_, i) => wrapped.summarize(request(`p${i}`))));
    for (let released = 0; released < 5; released++) {
      await settle();
      expect(state.inFlight).toBeLessThanOrEqual(2);
      pending.shift()?.();
    }
    await all;
    expect(state).toMatchObject({ most: 2, calls: 5 });
  });

  it('answers a cached request from the cache without sending it, and tallies cost and an ETA', async () => {
    const { summarizer, pending, state } = gated();
    const dir = mkdtempSync(join(tmpdir(), 'foldlab-client-'));
    let clock = 0;
    const lines: string[] = [];
    const client = new ModelClient({ cache: new RequestCache(dir, {}), concurrency: 1, total: 4, onProgress: (line) => lines.push(line), now: () => clock });
    const wrapped = client.wrap(summarizer, 'openai|x|gpt-4o-mini', PRICES['gpt-4o-mini']);
    const first = wrapped.summarize(request('a'));
    await settle();
    clock = 30_000;
    pending.shift()!();
    await first;
    // 30 s for one request sent, 3 to go.
    expect(lines.at(-1)).toBe('1/4 requests · 1,000 in, 100 out · $0.0002 so far · ETA 2 min');
    await wrapped.summarize(request('a'));
    expect(state.calls).toBe(1);
    expect(client.tally).toMatchObject({ sent: 1, cached: 1 });
    expect(lines.at(-1)).toMatch(/^2\/4 requests \(1 from the cache\)/);
  });

  it('an unknown price makes the cost unknown, not $0', async () => {
    const { summarizer, pending } = gated();
    const lines: string[] = [];
    const client = new ModelClient({ cache: new RequestCache(undefined, {}), concurrency: 1, onProgress: (line) => lines.push(line) });
    const reply = client.wrap(summarizer, 'openai|x|qwen3:8b', undefined).summarize(request('a'));
    await settle();
    pending.shift()!();
    await reply;
    expect(client.tally.cost).toBeNull();
    expect(lines.at(-1)).toMatch(/unknown price$/);
  });

  it('stops at a spend or quota refusal: later requests fail with RunStoppedError unsent', async () => {
    let calls = 0;
    const refusing: Summarizer = {
      id: 'fake', label: 'fake',
      summarize: () => {
        calls++;
        return Promise.reject(new SpendLimitError(PROVIDER, 429, 'You exceeded your current quota', 'insufficient_quota'));
      },
    };
    const client = new ModelClient({ cache: new RequestCache(undefined, {}), concurrency: 2 });
    const wrapped = client.wrap(refusing, 'openai|x|gpt-4o-mini', undefined);
    await expect(wrapped.summarize(request('a'))).rejects.toBeInstanceOf(SpendLimitError);
    const later = await wrapped.summarize(request('b')).catch((error: unknown) => error);
    expect(later).toBeInstanceOf(RunStoppedError);
    expect((later as Error).message).toMatch(/^Not sent: the run stopped at a spend or quota limit/);
    expect(calls).toBe(1);
    expect(client.stopped).toMatch(/insufficient_quota/);
  });
});
