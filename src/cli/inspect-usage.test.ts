// `inspect --json`'s recorded usage on one sample of each agent format, summed by hand from the
// files themselves (the figures each source writes, normalized as docs/formats.md says: prompt
// tokens with cache reads and writes included, Gemini's thoughts inside the output).
import { describe, expect, it } from 'vitest';
import { formatInspect, runInspect } from './inspect.ts';

const S = 'public/samples';
const none = { responses: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

const CASES: Array<{ path: string; usage: typeof none; why: string }> = [
  // 14 `gemini` messages; the first records all zeros (no usage). input 7,269 + ... + 12,707;
  // output + thoughts 104 + ... + 98; cached 5,811 + ... + 8,840 (one response cached nothing).
  { path: 'gemini-cli/pomodoro-timer.json', usage: { responses: 13, input: 120_730, output: 6_223, cacheRead: 86_702, cacheWrite: 0 }, why: 'tokens per response' },
  // 11,855 + 12,069 in, 81 + 147 out, 0 + 11,502 cached.
  { path: 'gemini-cli/jsonl_v040.jsonl', usage: { responses: 2, input: 23_924, output: 228, cacheRead: 11_502, cacheWrite: 0 }, why: 'tokens per response (JSONL)' },
  // Three steps: input 2 / 2 / 5 plus cache reads 13,540 / 13,547 / 13,578 and writes 0 / 31 / 207; output 7 / 78 / 38.
  { path: 'opencode/sandbox-agent-messages.json', usage: { responses: 3, input: 40_912, output: 123, cacheRead: 40_665, cacheWrite: 238 }, why: "each step's tokens" },
  // Six assistant bubbles' tokenCount: 5,120 / 5,400 / 5,600 / 5,900 / 6,200 / 6,500 in; 88 / 40 / 60 / 120 / 95 / 30 out.
  { path: 'cursor/state.vscdb#a1b2c3d4-0000-4000-8000-000000000001', usage: { responses: 6, input: 34_720, output: 433, cacheRead: 0, cacheWrite: 0 }, why: "each bubble's tokenCount" },
  // Five StatusUpdate token_usage (the sixth step was interrupted): input_other + input_cache_read.
  { path: 'kimi/7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35', usage: { responses: 5, input: 63_651, output: 605, cacheRead: 60_416, cacheWrite: 0 }, why: "each step's StatusUpdate" },
  // The main agent's 14 step.end usages (the undone turn's cancelled step included: it was a call):
  // inputOther 3,412 + 1,356 + 402 + 318 + 512 + 233 + 196 + 884 + 467 + 301 + 2,046 + 163 + 1,893 + 212 = 12,395
  // plus inputCacheRead 4,608 + ... + 1,792 = 102,528; output 168 + ... + 44 = 1,165.
  { path: 'kimi-code/session_4e1b7c2a-9d3f-4a86-b5e0-7c21f8d3a94b', usage: { responses: 14, input: 114_923, output: 1_165, cacheRead: 102_528, cacheWrite: 0 }, why: "each step's step.end usage" },
  // Three api_req_started: tokensIn 4 each, cacheReads 0 / 11,873 / 12,285, cacheWrites 11,873 / 412 / 345, tokensOut 96 / 301 / 88.
  { path: 'cline/1764201600000', usage: { responses: 3, input: 36_800, output: 485, cacheRead: 24_158, cacheWrite: 12_630 }, why: "ui_messages.json's requests" },
  // The four tool-calling actions' tool_call_metadata.model_response.usage (litellm: prompt_tokens
  // already holds the cache reads and writes): prompt 3,439 / 3,601 / 4,769 / 5,488, cache reads
  // 0 / 3,435 / 3,595 / 4,763, cache creation 3,435 / 160 / 1,168 / 719, completion 104 / 1,142 / 693 / 85;
  // each observation repeats its action's response and is not counted again.
  { path: 'openhands/basic_gui_mode.json', usage: { responses: 4, input: 17_297, output: 2_024, cacheRead: 11_793, cacheWrite: 5_482 }, why: "each call's model_response" },
  // Six assistant messages' Anthropic usage: input_tokens 2 each, cache creation 1,480 / 720 / 310 / 96 / 88 / 150,
  // cache reads 14,210 / 15,690 / 16,410 / 16,720 / 16,720 / 16,900, output 612 / 148 / 41 / 27 / 96 / 30; the
  // .settings.json beside it totals the same (12 in, 2,844 written, 96,650 read, 954 out).
  { path: 'droid/e3a7c1d9-52b8-4f06-8d3e-9b1f4a6c2e70.jsonl', usage: { responses: 6, input: 99_506, output: 954, cacheRead: 96_650, cacheWrite: 2_844 }, why: "each message's usage (session store)" },
  // The sources that record no usage per call: outputTokens alone
  // (Copilot), no usage in stream-json or the session store (its totals are in .settings.json), none in Cursor's transcripts.
  { path: 'copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e/events.jsonl', usage: none, why: 'outputTokens only' },
  { path: 'droid/exec-rc-claude.jsonl', usage: none, why: 'no usage in stream-json' },
  { path: 'droid/b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl', usage: none, why: 'no usage per message' },
  { path: 'cursor/large.jsonl', usage: none, why: 'no usage in transcripts' },
];

describe("inspect's recorded usage on each agent's sample", () => {
  for (const { path, usage, why } of CASES) {
    it(`${path}: ${why}`, async () => {
      const report = await runInspect(`${S}/${path}`, 'chars4');
      expect(report.usage).toEqual(usage);
    });
  }

  it('prints the sums, or that none was recorded', async () => {
    const text = formatInspect(await runInspect(`${S}/opencode/sandbox-agent-messages.json`, 'chars4'));
    expect(text).toContain('usage         3 responses recorded: 40,912 in (40,665 cache read, 238 cache write), 123 out');
    expect(formatInspect(await runInspect(`${S}/droid/exec-rc-claude.jsonl`, 'chars4'))).toContain('usage         none recorded');
  });
});
