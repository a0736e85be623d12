/**
 * Kimi CLI's compaction summaries. The wire records a compaction only as `CompactionBegin` /
 * `CompactionEnd`; the summary goes to the context file: the session's `context.jsonl` is rotated
 * to `context_<n>.jsonl` (n counting up) and the new one starts with the system prompt, a
 * checkpoint, then a user message whose first part is `<system>Previous context has been
 * compacted. Here is the compaction output:</system>` and whose other text parts are the summary
 * (kimi-cli `soul/compaction.py`, `soul/context.py`). A revert rotates the file too, without a
 * summary, so only files that start with one count.
 */
import { isRecord, parseJsonLoose, str } from './builder.ts';
import type { FolderFile } from './opencode-folder.ts';

export const KIMI_COMPACTION_PREFIX = '<system>Previous context has been compacted. Here is the compaction output:</system>';

/** The context file's rotation number: 0 for a rotated `context_<n>.jsonl`'s n, Infinity for the current `context.jsonl`; undefined for other names. */
export function kimiContextOrder(name: string): number | undefined {
  if (name === 'context.jsonl') return Number.POSITIVE_INFINITY;
  const match = /^context_(\d+)\.jsonl$/.exec(name);
  return match ? Number(match[1]) : undefined;
}

/** The summary a context file starts with, if it starts with one (lines before its first user message are the prompt and checkpoints). */
export function kimiContextSummary(text: string): string | undefined {
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    // Not JSON comes back as the text itself, which is no record.
    const value = parseJsonLoose(line);
    if (!isRecord(value)) return undefined;
    const role = str(value.role);
    if (role === '_system_prompt' || role === '_checkpoint' || role === '_usage') continue;
    if (role !== 'user' || !Array.isArray(value.content)) return undefined;
    const texts = value.content.flatMap((part) => (isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? [part.text] : []));
    return texts[0] === KIMI_COMPACTION_PREFIX ? texts.slice(1).join('\n') : undefined;
  }
  return undefined;
}

/** The summaries of a session folder's context files (`prefix` is the session's folder in their paths), oldest first. */
export function kimiCompactionSummaries(files: readonly FolderFile[], prefix: string): string[] {
  return files
    .flatMap((file) => {
      if (!file.path.startsWith(prefix)) return [];
      const order = kimiContextOrder(file.path.slice(prefix.length));
      const summary = order === undefined ? undefined : kimiContextSummary(file.text);
      return order === undefined || summary === undefined ? [] : [{ order, summary }];
    })
    .sort((a, b) => a.order - b.order)
    .map(({ summary }) => summary);
}
