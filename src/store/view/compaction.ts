/**
 * A compaction's plan and run as the page shows them: the change in what is sent, where the plan's
 * after figure comes from, Augment's memories before and after, a run's context counted roughly
 * per entry (chars/4) and exported by the core's exporters as OpenAI or Anthropic messages or Markdown.
 */
import type { ContextEntry } from '../../core/compaction/types.ts';
import { toAnthropicMessages, toMarkdown, toOpenAIMessages } from '../../core/export/index.ts';
import type { Entry } from '../../core/journal/entry.ts';
import { getEstimator } from '../../core/tokens/counters.ts';
import { countEntry } from '../../core/tokens/entry-tokens.ts';

export { describeChange } from '../../core/compaction/plan-change.ts';
export { PLAN_AFTER_NOTES } from '../../core/compaction/planned-after.ts';
export { plannedMemories } from '../../core/strategies/augment/memories.ts';

const rough = getEstimator('chars4');

/** An entry's tokens by the chars/4 estimate (a run's context is shown without the exact counter). */
export function roughTokens(entry: Entry): number {
  return countEntry(entry, rough).total;
}

export type ContextExportKind = 'openai' | 'anthropic' | 'markdown';

/** A run's context as a file: its name's ending, its text and its media type. */
export function contextExport(kind: ContextExportKind, context: readonly ContextEntry[], title: string): { extension: string; text: string; type: string } {
  if (kind === 'openai') return { extension: 'openai.json', text: JSON.stringify(toOpenAIMessages(context), null, 2), type: 'application/json' };
  if (kind === 'anthropic') return { extension: 'anthropic.json', text: JSON.stringify(toAnthropicMessages(context), null, 2), type: 'application/json' };
  return { extension: 'md', text: toMarkdown(context, title), type: 'text/markdown' };
}
