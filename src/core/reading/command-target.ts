/**
 * What a command works on, so a later run can be told to fix an earlier failure: each program
 * with its subcommand words and the files it names, flags and output filters left out. `npm test
 * -s` and `npm test -- --pool=threads` both work on `npm test`; `git commit -m "a"` and `git commit
 * -am "b"` on `git commit`; `pytest tests/a.py -x` on `pytest a.py`. A `cd` stays part of it (the
 * same command in another package is another target), an inline script (`python -c …`) too, and
 * a flag that makes the run only report (`--help`, `--collect-only`): it tests nothing.
 */
import { programWords, shellWords, withoutOutputFilters } from './shell-words.ts';

/** Subcommand words kept after a program at most (`npm run build`, `uv run pytest`). */
export const MAX_SUBCOMMAND_WORDS = 2;
/** Longest target kept, characters. */
export const MAX_TARGET_CHARS = 300;

/** Programs that only set up the shell or print: they name no target of their own. */
const SETUP = new Set(['export', 'set', 'source', '.', 'true', ':', 'echo', 'printf', 'sleep', 'pushd', 'popd', 'clear']);
/** Flags that make a command only report (help, version, a listing, a dry run): such a run tests nothing. */
const REPORT_FLAG = /^(?:-h|--help|-V|--version|--markers|--collect-only|--co|--list(?:-\w+)?|--dry-run|--fixtures)$/;
/** Flags whose value is the code the program runs (`python -c`, `node -e`, `bash -c`). */
const INLINE_CODE = new Set(['-c', '-e', '--eval', '-p', '--print']);

function isPathLike(word: string): boolean {
  return !word.includes(' ') && (word.includes('/') || /\.[A-Za-z]\w{0,7}(?:::\S*)?$/.test(word) || word.includes('*'));
}

/** The last part of a path (`src/a.ts` -> `a.ts`; `tests/a.py::test_x` -> `a.py::test_x`). */
function lastPart(word: string): string {
  const trimmed = word.replace(/\/+$/, '');
  const at = trimmed.lastIndexOf('/', trimmed.includes('::') ? trimmed.indexOf('::') : trimmed.length);
  return at >= 0 && at < trimmed.length - 1 ? trimmed.slice(at + 1) : trimmed;
}

/** The target of one simple command, or undefined when it names none (setup, an empty line). */
function simpleTarget(words: readonly string[]): string | undefined {
  const { plain, start } = programWords(words);
  const first = plain[start];
  if (first === undefined) return undefined;
  const program = lastPart(first);
  if (SETUP.has(program)) return undefined;
  if (program === 'cd') return plain[start + 1] === undefined ? undefined : `cd ${lastPart(plain[start + 1]!)}`;
  const parts = [program];
  let flagSeen = false;
  let subcommands = 0;
  const args = plain.slice(start + 1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      flagSeen = true;
      continue;
    }
    if (arg.startsWith('-')) {
      flagSeen = true;
      if (INLINE_CODE.has(arg) && args[i + 1] !== undefined) parts.push(arg, args[++i]!.replace(/\s+/g, ' ').trim());
      else if (REPORT_FLAG.test(arg)) parts.push(arg);
      continue;
    }
    if (isPathLike(arg) && !/^\w+:\/\//.test(arg)) parts.push(lastPart(arg));
    else if (!flagSeen && subcommands < MAX_SUBCOMMAND_WORDS && /^[A-Za-z@][\w:.@-]*$/.test(arg)) {
      parts.push(arg);
      subcommands++;
    }
  }
  return parts.join(' ');
}

/**
 * The target of a shell command (see the module comment): its simple commands' targets joined by
 * ` && `, or undefined when it has none. At most MAX_TARGET_CHARS characters.
 */
export function commandTarget(script: string): string | undefined {
  const targets = shellWords(withoutOutputFilters(script)).flatMap((words) => simpleTarget(words) ?? []);
  // `cd` alone, or only setup: nothing was run on anything.
  if (targets.every((target) => target.startsWith('cd '))) return undefined;
  const joined = targets.join(' && ');
  return joined.length > MAX_TARGET_CHARS ? joined.slice(0, MAX_TARGET_CHARS) : joined;
}
