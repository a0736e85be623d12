// A run's context on the Compact and Runs tabs: counted per entry by chars/4 and exported by the core.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ContextEntry } from '../../core/compaction/types.ts';
import { toAnthropicMessages, toMarkdown, toOpenAIMessages } from '../../core/export/index.ts';
import { importText } from '../../core/import/run.ts';
import { entryText } from '../../core/journal/entry.ts';
import { contextExport, roughTokens } from './compaction.ts';

const entries = importText(readFileSync('public/samples/pi/v3-small.jsonl', 'utf8')).entries;
const context: ContextEntry[] = entries.map((entry) => ({ role: entry.role, entry, origin: 'journal' }));

describe('a run\'s context', () => {
  it('is counted per entry by the chars/4 estimate', () => {
    const entry = entries.find((e) => entryText(e).length > 40)!;
    expect(roughTokens(entry)).toBeGreaterThanOrEqual(Math.floor(entryText(entry).length / 4));
  });

  it('exports as the core writes OpenAI and Anthropic messages and Markdown, each with its file ending and type', () => {
    expect(contextExport('openai', context, 'T')).toEqual({ extension: 'openai.json', text: JSON.stringify(toOpenAIMessages(context), null, 2), type: 'application/json' });
    expect(contextExport('anthropic', context, 'T')).toEqual({ extension: 'anthropic.json', text: JSON.stringify(toAnthropicMessages(context), null, 2), type: 'application/json' });
    expect(contextExport('markdown', context, 'T')).toEqual({ extension: 'md', text: toMarkdown(context, 'T'), type: 'text/markdown' });
  });
});
