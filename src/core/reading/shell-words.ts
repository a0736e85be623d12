/**
 * Shell words for reading a transcript's commands: the simple commands of a script with quotes
 * removed, heredoc bodies and comments skipped, and a command without what only shapes its output. Shared
 * by the offline summarizer and the retention probes, so both read a command the same way. Cost
 * is bounded: only the first MAX_SCRIPT_CHARS characters and MAX_SHELL_COMMANDS simple commands.
 */

/** Characters of a script read at most (a heredoc body past this is never scanned). */
export const MAX_SCRIPT_CHARS = 20_000;
/** Simple commands of a script read at most. */
export const MAX_SHELL_COMMANDS = 200;

/** Words of each simple command (split at newlines, `;`, `|`, `&`, parentheses), quotes removed, heredoc bodies and comments skipped. */
export function shellWords(script: string): string[][] {
  const text = script.length > MAX_SCRIPT_CHARS ? script.slice(0, MAX_SCRIPT_CHARS) : script;
  const commands: string[][] = [[]];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  let expectMarker = false;
  const heredocs: string[] = [];
  const current = (): string[] => commands[commands.length - 1]!;
  const endWord = (): void => {
    if (inWord) {
      if (expectMarker) {
        heredocs.push(word);
        expectMarker = false;
      }
      current().push(word);
    }
    word = '';
    inWord = false;
  };
  const split = (): void => {
    if (current().length > 0) commands.push([]);
  };
  for (let i = 0; i < text.length && commands.length <= MAX_SHELL_COMMANDS; i++) {
    const char = text[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += char;
      continue;
    }
    if (char === '#' && !inWord) {
      // A comment runs to the end of the line: `# config -> utils/config` redirects nothing.
      const end = text.indexOf('\n', i);
      i = (end < 0 ? text.length : end) - 1;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
      continue;
    }
    if (char === '\\' && i + 1 < text.length) {
      if (text[i + 1] !== '\n') {
        word += text[i + 1];
        inWord = true;
      }
      i++;
      continue;
    }
    if (char === '\n' || char === ';' || char === '|' || char === '&' || char === '(' || char === ')') {
      endWord();
      if (char === '\n') {
        // Skip each pending heredoc body up to its marker line.
        for (const marker of heredocs.splice(0)) {
          let at = i;
          for (;;) {
            const next = text.indexOf(`\n${marker}`, at);
            if (next < 0) {
              at = text.length;
              break;
            }
            const after = text[next + marker.length + 1];
            if (after === undefined || after === '\n') {
              at = next + marker.length + 1;
              break;
            }
            at = next + 1;
          }
          i = at - 1;
        }
      }
      split();
      continue;
    }
    if (char === ' ' || char === '\t') {
      endWord();
      continue;
    }
    if (char === '>' || char === '<') {
      // Redirect operators are words of their own: `2>&1`, `>`, `>>`, `<<-`; `>file` gives `>`, `file`.
      let op = /^\d$/.test(word) ? word : '';
      if (op) {
        word = '';
        inWord = false;
      } else endWord();
      op += char;
      while (i + 1 < text.length && '><&-|'.includes(text[i + 1]!)) op += text[++i];
      if (op.endsWith('&')) while (i + 1 < text.length && /[\d-]/.test(text[i + 1]!)) op += text[++i];
      current().push(op);
      if (op === '<<' || op === '<<-') expectMarker = true;
      continue;
    }
    word += char;
    inWord = true;
  }
  endWord();
  return commands.filter((command) => command.length > 0).slice(0, MAX_SHELL_COMMANDS);
}


const WRAPPERS = new Set(['sudo', 'command', 'time', 'nohup', 'env', 'exec']);
const REDIRECT = /^\d?[<>]/;

/** The command's words without redirects and their targets, and where the program starts (after wrappers and `X=1`). */
export function programWords(words: readonly string[]): { plain: string[]; start: number } {
  const plain = words.filter((word, i) => !REDIRECT.test(word) && !(i > 0 && /^\d?[<>]+[&-]?$/.test(words[i - 1]!)));
  let start = 0;
  while (start < plain.length && (WRAPPERS.has(plain[start]!) || /^\w+=/.test(plain[start]!))) start++;
  return { plain, start };
}

/** Output filters a command's output goes through: they change what is shown, not what ran. */
const FILTERS = /^(?:tail|head|grep|egrep|rg|sort|uniq|cut|wc|less|more|cat)$/;

/**
 * The command without what only shapes its output: `2>&1` and trailing filters (`| tail -5`,
 * `| grep "error TS"`, `| head -20`), so `npm run check 2>&1 | tail -3` succeeding fixes
 * `npm run check 2>&1 | grep "error TS"` failing. Whitespace collapsed.
 */
export function withoutOutputFilters(command: string): string {
  let text = command.replace(/\s+/g, ' ').trim();
  if (text.length > MAX_SCRIPT_CHARS) return text;
  for (let guard = 0; guard < 10; guard++) {
    const pipe = lastTopLevelPipe(text);
    if (pipe < 0) break;
    const tail = text.slice(pipe + 1).trim();
    const program = tail.split(' ')[0] ?? '';
    if (!FILTERS.test(program) || /[;&<>]|\$\(/.test(tail.replace(/2>&1/g, ''))) break;
    text = text.slice(0, pipe).trim();
  }
  return text.replace(/\s*2>&1\s*$/, '').replace(/\s*2>&1(?=\s*\|)/g, '').trim();
}

/** Index of the last `|` outside quotes that is not part of `||`, or -1. */
function lastTopLevelPipe(text: string): number {
  let quote: string | undefined;
  let last = -1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"') i++;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '\\') i++;
    else if (char === '|') {
      if (text[i + 1] === '|') {
        i++;
        last = -1;
        continue;
      }
      last = i;
    } else if (char === ';' || (char === '&' && text[i + 1] === '&')) last = -1;
  }
  return last;
}
