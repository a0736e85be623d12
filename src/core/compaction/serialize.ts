/**
 * Turns entries into the text a summarizer reads, and wraps it in delimiters the content cannot
 * close (the tag is lengthened until it appears nowhere in the transcript), so a transcript can
 * never pose as instructions outside its block.
 */
import { blockText, type Entry } from '../journal/entry.ts';
import { messageParts } from '../summarize/harness.ts';

/** The label of harness text in a user message, so no summarizer takes it for the user's request. */
export const INJECTED_LABEL = '[user (injected by the harness)]';

/** Characters of one tool result kept in a summarizer's input (both ends kept). */
export const DEFAULT_RESULT_CHARS = 2000;

/** Keeps both ends of a long text with a marker in the middle. */
export function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = `\n…[${text.length - max} characters omitted]…\n`;
  const keep = Math.max(0, max - marker.length);
  const head = Math.ceil(keep / 2);
  return text.slice(0, head) + marker + text.slice(text.length - (keep - head));
}

/** A user text block's lines: the person's words as `[user]`, harness text in it (IDE selections, reminders) apart. */
function userLines(entry: Entry, text: string): string[] {
  if (entry.flags?.injected) return [`${INJECTED_LABEL}: ${text}`];
  return messageParts(text).map((part) => `${part.harness ? INJECTED_LABEL : `[${entry.role}]`}: ${part.text}`);
}

/**
 * `[role]: text` lines, tool calls as `[assistant tool call] name(args)`, results clipped; harness
 * text inside a user message is labelled `[user (injected by the harness)]`, apart from the words.
 */
export function serializeEntries(entries: readonly Entry[], resultChars = DEFAULT_RESULT_CHARS): string {
  const lines: string[] = [];
  for (const entry of entries) {
    for (const block of entry.blocks) {
      switch (block.type) {
        case 'text':
          if (!block.text.trim()) break;
          if (entry.role === 'user') lines.push(...userLines(entry, block.text));
          else lines.push(`[${entry.role}]: ${block.text}`);
          break;
        case 'thinking':
          if (block.text.trim()) lines.push(`[${entry.role} thinking]: ${block.text}`);
          break;
        case 'tool_call':
          lines.push(`[${entry.role} tool call]: ${blockText(block)}`);
          break;
        case 'tool_result':
          lines.push(`[tool result${block.isError ? ' (error)' : ''}${block.toolName ? ` ${block.toolName}` : ''}]: ${truncateMiddle(blockText(block), resultChars)}`);
          break;
        case 'image':
          lines.push(`[${entry.role} image: ${block.mediaType}]`);
          break;
      }
    }
  }
  return lines.join('\n\n');
}

/** Wraps a transcript in `<TAG>…</TAG>` where TAG occurs nowhere inside it. */
export function wrapTranscript(text: string, base = 'conversation'): string {
  let tag = base;
  let n = 0;
  while (text.includes(`<${tag}`) || text.includes(`</${tag}`)) tag = `${base}-${++n}`;
  return `<${tag}>\n${text}\n</${tag}>`;
}

/** The text `wrapTranscript` wrapped (any tag it may have chosen); other text unchanged. */
export function unwrapTranscript(text: string): string {
  const match = /^<([a-z_]+(?:-\d+)?)>\n([\s\S]*)\n<\/\1>$/.exec(text.trim());
  return match ? match[2]! : text;
}
