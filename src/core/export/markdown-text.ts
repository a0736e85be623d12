/**
 * Transcript text made safe to place in a Markdown document: raw HTML (`<script>`, `<img onerror>`,
 * `&entities;`) outside code is escaped so any Markdown viewer shows it as the characters that were
 * written, while fenced code blocks and inline code spans stay verbatim (a viewer shows them
 * literally already). A fence the text opens and never closes is closed at the end of the text, so
 * one message cannot swallow the rest of the document.
 */

/** An opening or closing fence line: up to three spaces, then three or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** `text` with HTML outside code escaped, fences kept verbatim and an unclosed fence closed. */
export function escapeMarkdownText(text: string): string {
  const out: string[] = [];
  let open: { char: string; length: number } | undefined;
  let paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length > 0) out.push(escapeOutsideCodeSpans(paragraph.join('\n')));
    paragraph = [];
  };
  for (const line of text.split('\n')) {
    const match = FENCE.exec(line);
    if (open) {
      out.push(line);
      if (match && match[1]![0] === open.char && match[1]!.length >= open.length && match[2]!.trim() === '') open = undefined;
      continue;
    }
    // A backtick fence's info string may not hold a backtick (CommonMark): such a line is text.
    if (match && !(match[1]![0] === '`' && match[2]!.includes('`'))) {
      flush();
      out.push(line);
      open = { char: match[1]![0]!, length: match[1]!.length };
      continue;
    }
    paragraph.push(line);
  }
  flush();
  if (open) out.push(open.char.repeat(open.length));
  return out.join('\n');
}

/** `text` written as one inline code span, with a backtick run longer than any inside it. */
export function codeSpan(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/**
 * Escapes `&` and `<` everywhere except inside inline code spans a viewer is sure to see as code: a
 * run of N backticks (its first one not backslash-escaped) closed by the next run of exactly N on the
 * same line, holding no `|` (a table row splits cells at it). Any doubt escapes: at worst a code
 * span shows `&lt;` literally, never a tag rendered.
 */
function escapeOutsideCodeSpans(text: string): string {
  return text.split('\n').map(escapeLine).join('\n');
}

function escapeLine(line: string): string {
  // Each run as an opener (an escaped first backtick is literal) and as a closer (whole: backslashes
  // are literal inside code).
  const runs: Array<{ index: number; length: number; start: number; whole: number }> = [];
  for (const match of line.matchAll(/`+/g)) {
    let slashes = 0;
    while (match.index - slashes - 1 >= 0 && line[match.index - slashes - 1] === '\\') slashes += 1;
    const escaped = slashes % 2 === 1;
    runs.push({ index: match.index + (escaped ? 1 : 0), length: match[0].length - (escaped ? 1 : 0), start: match.index, whole: match[0].length });
  }
  let result = '';
  let at = 0;
  for (let i = 0; i < runs.length; i += 1) {
    const open = runs[i]!;
    if (open.length === 0) continue;
    const j = runs.findIndex((run, k) => k > i && run.whole === open.length);
    if (j < 0) continue;
    const close = runs[j]!;
    const span = line.slice(open.index, close.start + close.whole);
    if (!span.includes('|')) {
      result += escapeHtml(line.slice(at, open.index)) + span;
      at = close.start + close.whole;
    }
    i = j;
  }
  return result + escapeHtml(line.slice(at));
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}
