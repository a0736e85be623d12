/**
 * The session's own model as the strategy's summarizer: each summary request is one model call
 * with the summarizer system prompt (prompts/summarizer-system.md) and the rendered prompt as the
 * user message, no tools. Used where the provider summarizers cannot run (the Node CLI) and so a
 * live session pays one model, not two.
 */
import type { Summarizer } from '../compaction/summarizer.ts';
import type { Entry } from '../journal/entry.ts';
import type { AgentModel } from './types.ts';

/** Prompt file id of the system message every summary request carries. */
export const SUMMARY_SYSTEM_PROMPT_ID = 'summarizer-system';

export function modelSummarizer(model: AgentModel, systemPrompt: string): Summarizer {
  return {
    id: model.kind,
    label: `${model.kind} · ${model.model}`,
    systemPrompt: SUMMARY_SYSTEM_PROMPT_ID,
    summarize: async (request) => {
      const entry: Entry = { id: `summary-request-${request.taskId}`, index: 0, parentId: null, role: 'user', kind: 'message', blocks: [{ type: 'text', text: request.prompt }], sourceType: 'summary-request', line: 0 };
      const reply = await model.complete({
        system: systemPrompt,
        tools: [],
        context: [{ role: 'user', entry, origin: 'synthetic' }],
        ...(request.maxTokens !== undefined ? { maxOutputTokens: request.maxTokens } : {}),
        signal: request.signal,
      });
      return { text: reply.text, model: reply.model, ...(reply.usage ? { usage: { input: reply.usage.input, output: reply.usage.output } } : {}) };
    },
  };
}
