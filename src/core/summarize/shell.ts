/**
 * Just enough shell reading for a summary: the programs a command line runs, the files it clearly
 * writes (`cat > f <<EOF`, `echo … > f`, `>> f`, `tee`, `sed -i`, `cp`, `mv`, `touch`, `rm`), the
 * key of the command without its output filters (`2>&1 | tail -5`), and whether its output reports
 * a failure. Quotes are honoured, heredoc bodies skipped, anything unclear ignored. Cost is bounded:
 * only the first MAX_SCRIPT_CHARS characters of a script and MAX_SHELL_COMMANDS simple commands are
 * read, however long the script is.
 */

import { programWords, shellWords } from '../reading/shell-words.ts';

export { MAX_SCRIPT_CHARS, MAX_SHELL_COMMANDS, shellWords, withoutOutputFilters } from '../reading/shell-words.ts';

/** Characters of a tool's output searched for failure signals at most. */
export const MAX_OUTPUT_CHARS = 100_000;

export type ShellFileKind = 'created' | 'modified' | 'deleted';

export interface ShellFileChange {
  path: string;
  kind: ShellFileKind;
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
