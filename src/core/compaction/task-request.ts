/**
 * What a summary task asks of a summarizer, apart from the rendered prompt: the entries it covers,
 * the summary it updates, its variables and its budget. The run sends exactly this, and the plan
 * sizes the offline summary from exactly this, so the two cannot disagree.
 */
import type { Entry } from '../journal/entry.ts';
import type { SummaryRequest } from './summarizer.ts';
import type { CompactionInput, SummaryTask } from './types.ts';

/** A summary request without the prompt text, the serialization and the signal. */
export type TaskRequest = Pick<SummaryRequest, 'taskId' | 'promptId' | 'entries' | 'previousSummary' | 'vars' | 'maxTokens'>;

/** The entries a task covers, in order: its listed indices, else its inclusive range. */
export function taskEntries(input: CompactionInput, task: SummaryTask): Entry[] {
  return task.indices ? task.indices.map((i) => input.entries[i]!).filter(Boolean) : input.entries.slice(task.from, task.to + 1);
}

export function taskRequest(input: CompactionInput, task: SummaryTask): TaskRequest {
  return {
    taskId: task.id,
    promptId: task.prompt,
    entries: taskEntries(input, task),
    ...(task.previousSummary !== undefined ? { previousSummary: task.previousSummary } : {}),
    vars: task.vars ?? {},
    ...(task.maxTokens !== undefined ? { maxTokens: task.maxTokens } : {}),
  };
}
