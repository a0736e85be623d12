/**
 * Just enough shell reading for a summary: the programs a command line runs, the files it clearly
 * writes (`cat > f <<EOF`, `echo … > f`, `>> f`, `tee`, `sed -i`, `cp`, `mv`, `touch`, `rm`), the
 * key of the command without its output filters (`2>&1 | tail -5`), and whether its output reports
 * a failure. Quotes are honoured, heredoc bodies skipped, anything unclear ignored. Cost is bounded:
 * only the first MAX_SCRIPT_CHARS characters of a script and MAX_SHELL_COMMANDS simple commands are
 * read, however long the script is.
 */

/** Characters of a script read at most (a heredoc body past this is never scanned). */
export const MAX_SCRIPT_CHARS = 20_000;
/** Simple commands of a script read at most. */
export const MAX_SHELL_COMMANDS = 200;
/** Characters of a tool's output searched for failure signals at most. */
export const MAX_OUTPUT_CHARS = 100_000;

export type ShellFileKind = 'created' | 'modified' | 'deleted';

export interface ShellFileChange {
  path: string;
  kind: ShellFileKind;
}

/** Words of each simple command (split at newlines, `;`, `|`, `&`, parentheses), quotes removed, heredoc bodies skipped. */
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
function programWords(words: readonly string[]): { plain: string[]; start: number } {
  const plain = words.filter((word, i) => !REDIRECT.test(word) && !(i > 0 && /^\d?[<>]+[&-]?$/.test(words[i - 1]!)));
  let start = 0;
  while (start < plain.length && (WRAPPERS.has(plain[start]!) || /^\w+=/.test(plain[start]!))) start++;
  return { plain, start };
}

/** The program of each simple command (`cd x && npm test | tail` gives cd, npm, tail). */
export function shellPrograms(script: string): string[] {
  return shellWords(script).flatMap((words) => {
    const { plain, start } = programWords(words);
    const program = plain[start];
    return program === undefined ? [] : [program.split('/').pop()!];
  });
}

function looksLikePath(word: string): boolean {
  if (word.length === 0 || word.length > 300 || word.startsWith('-') || !/^[\w@~./+,:=-]+$/.test(word)) return false;
  if (word.startsWith('/dev/') || word === '.' || word === '..' || word === '~' || word === '/') return false;
  return /[./]/.test(word) || /^[\w-]+$/.test(word);
}

/** `path` as seen from the directory the script `cd`-ed into (relative paths only; `..` folded). */
function resolve(dir: string | undefined, path: string): string {
  if (!dir || path.startsWith('/') || path.startsWith('~')) return path;
  const parts = `${dir}/${path}`.split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' && out.length > 0) continue;
    if (part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..' && out[out.length - 1] !== '') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

/**
 * Files a shell script clearly creates, modifies or deletes, in order. A relative path after a
 * `cd dir` in the same script is given relative to where the script started (`cd pkg && sed -i …
 * src/a.ts` gives `pkg/src/a.ts`); after a `cd` it cannot follow (`cd $X`, `cd -`) paths stay as
 * written.
 */
export function shellFileChanges(script: string): ShellFileChange[] {
  const changes: ShellFileChange[] = [];
  let dir: string | undefined;
  const add = (path: string, kind: ShellFileKind): void => {
    if (looksLikePath(path)) changes.push({ path: resolve(dir, path), kind });
  };
  for (const words of shellWords(script)) {
    for (let i = 0; i < words.length - 1; i++) {
      const op = words[i]!;
      if (op === '>' || op === '1>' || op === '>|' || op === '&>') add(words[i + 1]!, 'created');
      else if (op === '>>' || op === '1>>' || op === '&>>') add(words[i + 1]!, 'modified');
    }
    const { plain, start } = programWords(words);
    const program = plain[start];
    if (program === undefined) continue;
    const args = plain.slice(start + 1).filter((arg) => arg.length > 0);
    const operands = args.filter((arg) => !arg.startsWith('-'));
    const flags = args.filter((arg) => arg.startsWith('-'));
    switch (program.split('/').pop()) {
      case 'cd': {
        const target = operands[0];
        dir = target === undefined || target.startsWith('~') || target.startsWith('/') ? undefined : looksLikePath(target) ? resolve(dir, target) : undefined;
        break;
      }
      case 'rm':
      case 'unlink':
        for (const path of operands) add(path, 'deleted');
        break;
      case 'mv':
        if (operands.length === 2 && !operands[1]!.endsWith('/') && looksLikePath(operands[0]!)) {
          add(operands[0]!, 'deleted');
          add(operands[1]!, 'created');
        }
        break;
      case 'cp':
        if (operands.length === 2 && !operands[1]!.endsWith('/') && !flags.some((flag) => /^-[a-zA-Z]*[rR]/.test(flag))) add(operands[1]!, 'created');
        break;
      case 'touch':
        for (const path of operands) add(path, 'created');
        break;
      case 'tee':
        for (const path of operands) add(path, flags.includes('-a') || flags.includes('--append') ? 'modified' : 'created');
        break;
      case 'sed':
      case 'gsed':
        if (flags.some((flag) => /^-[a-zA-Z]*i/.test(flag) || flag.startsWith('--in-place'))) {
          // The first operand is the sed script (an empty `-i ''` suffix is no operand); the rest are files.
          for (const path of operands.slice(1)) if (/\.\w+$|\//.test(path)) add(path, 'modified');
        }
        break;
    }
  }
  return changes;
}

/** Programs whose output is data (file content, search hits), not a report on their own success. */
const READ_ONLY = new Set(['cat', 'head', 'tail', 'sed', 'nl', 'less', 'more', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ls', 'find', 'fd', 'tree', 'wc', 'echo', 'printf', 'cd', 'pwd', 'jq', 'sort', 'uniq', 'cut', 'awk', 'diff', 'file', 'stat', 'which']);
const SEARCHES = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'diff', 'test', '[']);
/** Output filters a command's output goes through: they change what is shown, not what ran. */
const FILTERS = /^(?:tail|head|grep|egrep|rg|sort|uniq|cut|wc|less|more|cat)$/;

const EXIT_SIGNALS = [/\bexit(?:ed)?(?: with)?[ _](?:code|status)["']?\s*[:=]?\s*[1-9]\d*/i, /"exit_code"\s*:\s*[1-9]/];
const FAILURE_SIGNALS = [
  ...EXIT_SIGNALS,
  /Traceback \(most recent call last\)/,
  /^(?:Error|ERROR|fatal|FATAL|panic)(?:\b|:)/m,
  /command not found/,
  /No such file or directory/,
  /\berror TS\d+/,
  /^FAILED\b/m,
  /npm ERR!/,
  /^npm error\b/m,
];

/** Whether every program of the script only reads or searches (its output is data). */
export function onlyReads(script: string): boolean {
  const run = shellPrograms(script);
  return run.length > 0 && run.every((program) => READ_ONLY.has(program));
}

/** A search (`grep`, `rg`, `diff`, `test`) last in its script that exited 1 with no output: "no match", not a failure. */
export function isNoMatch(script: string, output: string): boolean {
  const run = shellPrograms(script);
  const last = run[run.length - 1];
  if (last === undefined || !SEARCHES.has(last)) return false;
  return /^\s*(?:\(no output\)\s*)?(?:command exited with code 1|exit code:? 1|process exited with code 1)?\.?\s*$/i.test(output.slice(0, 200));
}

/** Whether a shell result not flagged as an error still reports a failure in its text. */
export function outputReportsFailure(script: string, output: string): boolean {
  const text = output.length > MAX_OUTPUT_CHARS ? output.slice(0, MAX_OUTPUT_CHARS) : output;
  const signals = onlyReads(script) ? EXIT_SIGNALS : FAILURE_SIGNALS;
  return signals.some((signal) => signal.test(text));
}

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
