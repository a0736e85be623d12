// The remote summarizers' system message is the prompt file prompts/summarizer-system.md (D8), and
// a run records that file's version beside the task prompts.
import { describe, expect, it } from 'vitest';
import { promptVersion, runCompaction } from '../../core/compaction/run.ts';
import type { Strategy } from '../../core/compaction/strategy.ts';
import { echoSummarizer, linkEntries, makeEntries, makeInput } from '../../core/compaction/testing.ts';
import { piStrategy } from '../../core/strategies/pi.ts';
import { loadPrompts } from '../../cli/load.ts';
import { SUMMARIZER_SYSTEM_PROMPT, SUMMARIZER_SYSTEM_PROMPT_ID } from './presets.ts';
import { createRemoteSummarizer } from './remote.ts';

const prompts = loadPrompts();

describe('summarizer system prompt (D8)', () => {
  it('is the text of prompts/summarizer-system.md', () => {
    expect(SUMMARIZER_SYSTEM_PROMPT).toBe(prompts[SUMMARIZER_SYSTEM_PROMPT_ID]!.trim());
    expect(SUMMARIZER_SYSTEM_PROMPT).toMatch(/^You write summaries of conversation transcripts\./);
  });

  it('every remote summarizer names it, and a run records its version', async () => {
    for (const api of ['openai', 'anthropic'] as const) {
      const remote = createRemoteSummarizer({ presetId: 'custom', api, baseUrl: 'http://localhost:1/v1', model: 'm', apiKey: 'k' });
      expect(remote.systemPrompt).toBe(SUMMARIZER_SYSTEM_PROMPT_ID);
    }
    const tok = (n: number) => 'x'.repeat(4 * n);
    const entries = linkEntries(makeEntries([{ user: `a ${tok(800)}` }, { assistant: `b ${tok(800)}` }, { user: `c ${tok(800)}` }, { assistant: `d ${tok(800)}` }]));
    const summarizer = { ...echoSummarizer(), systemPrompt: SUMMARIZER_SYSTEM_PROMPT_ID };
    const outcome = await runCompaction({ strategy: piStrategy as unknown as Strategy, input: makeInput(entries), rawOptions: { keepRecentTokens: 900 }, summarizer, prompts });
    expect(outcome.record.prompt_versions[SUMMARIZER_SYSTEM_PROMPT_ID]).toBe(promptVersion(prompts[SUMMARIZER_SYSTEM_PROMPT_ID]!));
    expect(outcome.record.prompts).toContain('pi-summary');
  });
});
