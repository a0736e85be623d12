import { describe, expect, it } from 'vitest';
import type { SummaryRequest } from '../../core/compaction/summarizer.ts';
import { createAgentModel } from '../agent/agent-model.ts';
import { KeyOriginError } from './errors.ts';
import { createRemoteSummarizer, type RemoteConfig } from './remote.ts';
import { anthropicStream, openAIStream, renderedError } from './test-server.ts';
import { rejection, useFakeServer } from './test-fixtures.ts';

/** A remembered key is bound to the origin it was entered for; the fake server stands for another one. */
const CANARY = 'sk-canary-bound-7c1e90';
const SAVED_FOR = 'https://api.openai.com';
const server = useFakeServer();

const retry = { sleep: () => Promise.resolve(), random: () => 0 };

function summaryRequest(): SummaryRequest {
  return { taskId: 'history', promptId: 'pi-summary', prompt: 'Summarize.', entries: [], serialized: '', vars: {}, signal: new AbortController().signal };
}

const CONFIGS: Array<{ api: RemoteConfig['api']; presetId: string; path: string; base: () => string; ok: () => string[] }> = [
  { api: 'openai', presetId: 'openai', path: '/v1', base: () => `${server.url}/v1`, ok: () => openAIStream('Fine.') },
  { api: 'anthropic', presetId: 'anthropic', path: '', base: () => server.url, ok: () => anthropicStream('Fine.') },
];

describe.each(CONFIGS)('a key bound to its origin ($api)', ({ api, presetId, base, ok }) => {
  const config = (keyOrigin: string): RemoteConfig => ({ presetId, api, baseUrl: base(), model: 'm', apiKey: CANARY, keyOrigin });

  it('is refused, before anything is sent, by a summarizer whose base URL points at another origin', async () => {
    const error = await rejection(createRemoteSummarizer(config(SAVED_FOR)).summarize(summaryRequest()));
    expect(error).toBeInstanceOf(KeyOriginError);
    expect(error.message).toContain(`saved for ${SAVED_FOR}`);
    expect(error.message).toContain(new URL(server.url).origin);
    expect(error.message).toMatch(/enter the key again/i);
    expect(renderedError(error)).not.toContain(CANARY);
    expect(server.requests).toHaveLength(0);
  });

  it('is refused by the live agent model too, and never retried', async () => {
    const error = await rejection(createAgentModel(config(SAVED_FOR), { retry }).complete({ system: 's', tools: [], context: [], signal: new AbortController().signal }));
    expect(error).toBeInstanceOf(KeyOriginError);
    expect(server.requests).toHaveLength(0);
  });

  it('goes to the origin it was saved for', async () => {
    server.reply({ events: ok() });
    const reply = await createRemoteSummarizer(config(new URL(server.url).origin)).summarize(summaryRequest());
    expect(reply.text).toBe('Fine.');
    expect(server.requests).toHaveLength(1);
  });
});
