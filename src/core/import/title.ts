/**
 * A conversation's title when its file names none: the first real user request, as session browsers
 * show it — harness text (IDE context, reminders, caveats) and bare slash-command echoes skipped, a
 * command given with arguments kept as typed, one line cut between words. The page's library and
 * `cli inspect` both title a conversation with `conversationTitle`.
 */
import type { Entry } from '../journal/entry.ts';
import { readSlashCommand } from '../reading/slash-command.ts';
import { clipWords } from '../summarize/clip.ts';
import { userWords } from '../summarize/harness.ts';
import type { ImportResult } from './types.ts';

/** Longest title taken from a request, characters. */
export const REQUEST_TITLE_MAX_CHARS = 80;

/** The first user request's words, or undefined when no user message says anything. */
export function firstRequestTitle(entries: readonly Entry[], max = REQUEST_TITLE_MAX_CHARS): string | undefined {
  for (const entry of entries) {
    if (entry.role !== 'user' || entry.kind !== 'message' || entry.flags?.injected || entry.flags?.sidechain) continue;
    const text = entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    const slash = readSlashCommand(text);
    if (slash) {
      if (slash.args.trim()) return clipWords(`${slash.name} ${slash.args}`, max);
      continue;
    }
    const words = userWords(text);
    if (words) return clipWords(words, max);
  }
  return undefined;
}

/** The title the file gives (a Claude Code summary or custom title), else the first request, else undefined. */
export function conversationTitle(result: Pick<ImportResult, 'meta' | 'entries'>): string | undefined {
  return result.meta.title ?? firstRequestTitle(result.entries);
}
