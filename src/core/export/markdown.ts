/**
 * Exports a context as Markdown a person reads: one heading per entry, tool calls as fenced JSON,
 * results as fenced text kept whole, and summaries and compressed entries visibly marked so no one
 * mistakes them for what was said. Raw HTML in transcript text is escaped (code stays verbatim), so a
 * `<script>` or `<img onerror>` someone typed shows as text in any Markdown viewer.
 */
import type { Block, ToolResultBlock } from '../journal/entry.ts';
import type { ContextEntry } from '../compaction/types.ts';
import { imagePlaceholder, isExported } from './common.ts';
import { codeSpan, escapeMarkdownText } from './markdown-text.ts';

const HEADINGS: Record<ContextEntry['role'], string> = {
  system: 'System',
  user: 'User',
  assistant: 'Assistant',
  tool: 'Tool result',
  summary: 'Summary',
};

/** The context as Markdown, headed by `# title`. */
export function toMarkdown(context: readonly ContextEntry[], title: string): string {
  const names = new Map<string, string>();
  for (const item of context) {
    for (const block of item.entry.blocks) if (block.type === 'tool_call') names.set(block.callId, block.name);
  }
  const sections: string[] = [`# ${escapeMarkdownText(title.replace(/\s+/g, ' ').trim()) || 'Context'}`];
  for (const item of context) {
    if (!isExported(item)) continue;
    const parts: string[] = [`## ${HEADINGS[item.role]}`];
    const marker = markerOf(item);
    if (marker) parts.push(marker);
    for (const block of item.entry.blocks) {
      const text = blockMarkdown(block, names);
      if (text.length > 0) parts.push(text);
    }
    sections.push(parts.join('\n\n'));
  }
  return `${sections.join('\n\n')}\n`;
}

function markerOf(item: ContextEntry): string | undefined {
  if (item.origin === 'summary' || item.role === 'summary') {
    const count = item.replaces?.count;
    return `> **Summary** (replaces ${count ?? 'earlier'} ${count === 1 ? 'entry' : 'entries'})`;
  }
  if (item.origin === 'compressed') return `> **Compressed** (rewritten by the strategy; the journal keeps the original entry ${item.entry.id})`;
  if (item.origin === 'synthetic') return '> **Added by the strategy**';
  return undefined;
}

function blockMarkdown(block: Block, names: ReadonlyMap<string, string>): string {
  switch (block.type) {
    case 'text':
      return escapeMarkdownText(block.text);
    case 'image':
      return `_${imagePlaceholder(block)}_`;
    case 'thinking':
      if (block.redacted || block.text.length === 0) return '_[thinking redacted]_';
      return `<details><summary>Thinking</summary>\n\n${escapeMarkdownText(block.text)}\n\n</details>`;
    case 'tool_call': {
      const raw = typeof block.input === 'string';
      const body = raw ? (block.input as string) : (JSON.stringify(block.input ?? {}, null, 2) ?? '{}');
      return `**Tool call** ${codeSpan(block.name)} (${codeSpan(block.callId)})\n\n${fence(body, raw ? 'text' : 'json')}`;
    }
    case 'tool_result':
      return resultMarkdown(block, names);
  }
}

function resultMarkdown(block: ToolResultBlock, names: ReadonlyMap<string, string>): string {
  const name = block.toolName ?? names.get(block.callId);
  const head = `**Result**${name ? ` of ${codeSpan(name)}` : ''} (${codeSpan(block.callId)})${block.isError ? ' — **error**' : ''}`;
  const body = block.content.map((part) => (part.type === 'text' ? part.text : imagePlaceholder(part))).join('\n');
  return `${head}\n\n${fence(body, 'text')}`;
}

/** A fence one backtick longer than any run of backticks inside, so content cannot close it. */
function fence(body: string, language: string): string {
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${language}\n${body}\n${ticks}`;
}
