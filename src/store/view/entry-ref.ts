/**
 * How the page names a journal entry in running text (plan notes, a compaction's notes): by its
 * line in the file and a short excerpt of what it says, never by a bare id; the id stays at hand
 * (the caller shows it on hover); and an entry's text on one line, cut short, as lists show it.
 */
import { entryText, type Entry } from '../../core/journal/entry.ts';
import { clipWords } from '../../core/summarize/clip.ts';
import { stripHarness } from '../../core/summarize/harness.ts';

/** Characters of an entry's excerpt. */
export const EXCERPT_CHARS = 40;

/** `line 12 "Fix the parser…"` (a tool call by its name when it has no words). */
export function entryRef(entry: Pick<Entry, 'line' | 'blocks' | 'role'>): string {
  const said = entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  const text = entry.role === 'user' ? stripHarness(said) : said || (entry.blocks.some((block) => block.type === 'tool_call') ? '' : entryText(entry as Entry));
  const call = entry.blocks.find((block) => block.type === 'tool_call');
  const words = clipWords(text, EXCERPT_CHARS) || (call?.type === 'tool_call' ? `${call.name} call` : '');
  return words ? `line ${entry.line} "${words}"` : `line ${entry.line}`;
}

export type NotePart = { text: string } | { id: string; ref: string };

/** A note cut into its words and the entry ids in it (each with its reference), in order. */
export function noteParts(note: string, byId: (id: string) => Pick<Entry, 'line' | 'blocks' | 'role'> | undefined): NotePart[] {
  const parts: NotePart[] = [];
  let text = '';
  for (const token of note.split(/([\w-]{2,})/)) {
    const entry = token.length >= 2 ? byId(token) : undefined;
    if (!entry) {
      text += token;
      continue;
    }
    if (text) parts.push({ text });
    text = '';
    parts.push({ id: token, ref: entryRef(entry) });
  }
  if (text) parts.push({ text });
  return parts;
}

/** The first ~`chars` characters of an entry's text on one line. */
export function preview(entry: Entry, chars = 200): string {
  const text = entryText(entry).replace(/\s+/g, ' ').trim();
  return text.length > chars ? `${text.slice(0, chars)}…` : text || '(no text)';
}
