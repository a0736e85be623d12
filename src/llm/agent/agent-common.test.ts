import { describe, expect, it } from 'vitest';
import { ContextOverflowError } from '../../core/agent/types.ts';
import { parseToolInput, toAgentError } from './agent-common.ts';
import { AuthError, RateLimitError, StreamError, type ProviderRef } from '../remote/errors.ts';
import { errorFromResponse } from '../remote/http.ts';
import { CancelledError } from '../../core/cancel.ts';

const PROVIDER: ProviderRef = { id: 'openai', label: 'Test server', model: 'm-1', baseUrl: 'http://127.0.0.1:1/v1' };
const live = new AbortController().signal;

describe('toAgentError', () => {
  // The providers' own words for "the prompt does not fit" (pi-mono packages/ai/src/utils/overflow.ts lists them).
  const overflows: Array<[string, number, string]> = [
    ['Anthropic', 400, 'prompt is too long: 213462 tokens > 200000 maximum'],
    ['OpenAI', 400, 'Your input exceeds the context window of this model'],
    ['Gemini', 400, 'The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)'],
    ['xAI', 400, "This model's maximum prompt length is 131072 but the request contains 537812 tokens"],
    ['Groq', 400, 'Please reduce the length of the messages or completion'],
    ['OpenRouter', 400, "This endpoint's maximum context length is 8192 tokens. However, you requested about 9000 tokens"],
    ['llama.cpp', 400, 'the request exceeds the available context size, try increasing it'],
    ['LM Studio', 400, 'tokens to keep from the initial prompt is greater than the context length'],
    ['GitHub Copilot', 400, 'prompt token count of 140000 exceeds the limit of 128000'],
    ['MiniMax', 400, 'invalid params, context window exceeds limit'],
    ['Kimi', 400, 'Your request exceeded model token limit: 262144 (requested: 300000)'],
    ['Mistral', 400, 'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length'],
    ['Cerebras', 413, ''],
  ];
  for (const [who, status, message] of overflows) {
    it(`maps ${who}'s overflow to the agent ContextOverflowError`, () => {
      const error = toAgentError(errorFromResponse(PROVIDER, status, message ? JSON.stringify({ error: { message } }) : ''), PROVIDER, live);
      expect(error).toBeInstanceOf(ContextOverflowError);
      expect(error.message).toContain('"m-1" on Test server');
    });
  }

  it('keeps a throttle a rate limit, even when it talks about tokens', () => {
    const error = toAgentError(errorFromResponse(PROVIDER, 429, JSON.stringify({ error: { message: 'Too many tokens per minute: limit 30000' } })), PROVIDER, live);
    expect(error).toBeInstanceOf(RateLimitError);
  });

  it('an aborted signal wins over whatever the request failed with', () => {
    const controller = new AbortController();
    controller.abort();
    expect(toAgentError(new StreamError(PROVIDER, 'cut', 3), PROVIDER, controller.signal)).toBeInstanceOf(CancelledError);
  });

  it('words the provider errors for a reply, and never shows the key', () => {
    const secret = 'sk-test-CANARY-1234567890';
    const auth = toAgentError(new AuthError(PROVIDER, 401, `bad key ${secret}`), PROVIDER, live, secret);
    expect(auth.message).toMatch(/Check the API key in Settings > Models/);
    expect(auth.message).not.toContain(secret);
    expect(toAgentError(new StreamError(PROVIDER, 'the connection was cut mid-stream', 12), PROVIDER, live).message).toMatch(/after 12 characters of the reply; nothing of it was kept/);
  });
});

describe('parseToolInput', () => {
  it('parses JSON, takes nothing as {}, and keeps text that is not JSON', () => {
    expect([parseToolInput('{"path":"a"}'), parseToolInput('  '), parseToolInput('*** Begin Patch')]).toEqual([{ path: 'a' }, {}, '*** Begin Patch']);
  });
});
