/**
 * Which lines of a user message the user typed, and which they pasted: terminal and error output
 * (git, npm, compilers, stack traces, log lines), diffs, JSON, HTTP exchanges, quoted text and
 * documentation. Pasted text is material the user shows, never an instruction they give: a line
 * of git's error ("Please make sure you have the correct access rights") is not a constraint.
 *
 * Lines are judged by paragraph (lines between blank lines): a paragraph holding a line of output
 * is pasted whole, and so is a paragraph right after pasted text that continues it (hard-wrapped
 * mid-sentence, a heading, a list, a table), because tools and documents wrap lines where a person
 * typing in a chat box does not.
 */

/** A line that is program output, code or a document's markup, whoever wrote the rest. */
const PASTED_LINE: RegExp[] = [
  // Error, warning and log lines: `fatal: …`, `ERROR: …`, `npm error …`, `[INFO] …`, `E   …` (pytest).
  /^(?:fatal|error|warning|hint|remote|ERROR|WARN(?:ING)?|FATAL|INFO|DEBUG|TRACE|CRITICAL|panic)(?:\[[\w-]+\])?:/,
  /^(?:Error|Exception|Caused by|Uncaught|Unhandled\w*)(?:\s\w+)?:/,
  /^npm (?:ERR!|error|warn)\b/,
  /^\[(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL)\]/i,
  /^E {2,}\S/,
  /^Traceback \(most recent call last\)/,
  // The runtime's banner Node prints after an uncaught exception.
  /^Node\.js v\d+\.\d+\.\d+$/,
  /^(?:[\w$]+\.)*[A-Z]\w*(?:Error|Exception|Warning):/,
  // Stack frames and source locations: `at f (a.js:1:2)`, `File "a.py", line 3`, `a.ts:3:1: error`, `a.ts(3,1): error TS2345`.
  /^at \S.*(?::\d+:\d+\)?|\(native\)|\(<anonymous>\))$/,
  /^File ".*", line \d+/,
  /^[\w./@-]+\.\w+(?::\d+){1,2}:?\s/,
  /\berror (?:TS|CS)\d+\b|\berror\[E\d+\]/,
  // Shell prompts and git's transport lines.
  /^\$ \S/,
  /^[\w.-]+@[\w.-]+:\S*[$#] /,
  /^(?:To|From) (?:https?:\/\/|git@|ssh:\/\/)\S+/,
  // Timestamped log lines.
  /^\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/,
  /^\[?\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\]?\s/,
  // HTTP exchanges (HAR, curl -v).
  /^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \S+ HTTP\/\d/,
  /^(?:[<>] )?HTTP\/\d(?:\.\d)? \d{3}\b/,
  // Diffs and diff stats.
  /^(?:diff --git |index [0-9a-f]{6,}\.\.|@@ |\+\+\+ |--- [ab]\/)/,
  /^[+-] ?\d+ [-+] /,
  // JSON and tables.
  /^[{}[\]],?$/,
  // A JSON object on one line (a JSONL record): `{"type":"message",…}`.
  /^\{"[\w$@.-]{1,60}"\s*:.*\}$/,
  /^"[^"]{1,80}"\s*:\s/,
  /^\|.*\|$/,
  // Quoted text.
  /^>/,
  // Terminal drawing and spinners, prompts of other shells, a line that is only a dropped file's path.
  /[─│┌┐└┘├┤━┃⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/,
  /^[➜❯%] /,
  /^['"]?~?\/\S*['"]?$/,
  /^[+-]\s*\d+\s/,
];

/** A Markdown heading: after pasted text, the document goes on (alone, it may be the user's own outline). */
const HEADING = /^#{1,6} \S/;
/** A list item. */
const LIST_ITEM = /^(?:[-*+•]|\d+[.)]) \S/;

/** One line, judged alone: output, code or quoted text (`line` untrimmed: indentation counts). */
export function isPastedLine(line: string): boolean {
  if (/^(?: {4,}|\t)\S/.test(line)) return true;
  const text = line.trim();
  return text.length > 0 && PASTED_LINE.some((pattern) => pattern.test(text));
}

/** Whether a paragraph is wrapped mid-sentence: a line ends without punctuation and the next goes on in lower case. */
function isHardWrapped(lines: readonly string[]): boolean {
  for (let i = 0; i + 1 < lines.length; i++) {
    if (/[\p{L}\p{N},]$/u.test(lines[i]!.trim()) && /^[a-z(]/.test(lines[i + 1]!.trim())) return true;
  }
  return false;
}

/** Whether a paragraph reads as the continuation of text pasted just before it. */
function continuesPaste(lines: readonly string[]): boolean {
  return isHardWrapped(lines) || lines.some((line) => HEADING.test(line.trim()) || /^\|.*\|$/.test(line.trim()))
    || lines.every((line) => LIST_ITEM.test(line.trim()));
}

/**
 * The message with every pasted line (see the module comment) replaced by an empty line, so what
 * is left is what the user typed, line breaks kept. Fenced code blocks are pasted too.
 */
export function typedText(text: string): string {
  const lines = text.split('\n');
  const pasted = lines.map(() => false);
  // Fenced code: the fences and everything between them (an unclosed fence runs to the end).
  let fence = false;
  lines.forEach((line, index) => {
    const isFence = /^\s*(?:```|~~~)/.test(line);
    if (isFence || fence) pasted[index] = true;
    if (isFence) fence = !fence;
  });
  // Paragraphs: runs of non-blank lines outside fences.
  const paragraphs: number[][] = [];
  let current: number[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '' || pasted[index]) {
      if (current.length > 0) paragraphs.push(current);
      current = [];
      if (pasted[index] && line.trim() !== '') paragraphs.push([index]);
      return;
    }
    current.push(index);
  });
  if (current.length > 0) paragraphs.push(current);
  let previousPasted = false;
  for (const paragraph of paragraphs) {
    const texts = paragraph.map((index) => lines[index]!);
    const isPasted: boolean = paragraph.some((index) => pasted[index] || isPastedLine(lines[index]!)) || (previousPasted && continuesPaste(texts));
    if (isPasted) for (const index of paragraph) pasted[index] = true;
    previousPasted = isPasted;
  }
  return lines.map((line, index) => (pasted[index] ? '' : line)).join('\n');
}
