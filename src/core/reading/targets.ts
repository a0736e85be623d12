/**
 * What a shell command works on, loosely, so a failure counts as resolved when a later command on
 * the same target succeeds even with other flags, another spelling of the path or other setup
 * around it: `git diff -- a.py` resolves `git diff HEAD~1 a.py`, `git add . && git commit -m x`
 * resolves `git commit -m x`, `cp ./src/dark.json ~/t/custom.json` resolves a failed copy to the
 * same destination.
 *
 * A target key is the directory the command ran in (unless the `cd` itself is what failed), the program with its subcommand (`git diff`, `npm run build`, `uv run pytest`),
 * and the operands that name what it acts on: path-like words, short-flag selectors with their
 * value (`-m unit`, `-c "<script>"`), and for copies and moves only the destination. Long flags
 * (`--pool=threads`, `--noEmit`) and revision words are dropped. Setup commands (`cd`, `mkdir`,
 * `export`) are not targets. Shared by the retention probes and the offline summarizer, so both
 * call the same failure resolved.
 *
 * The directory is the one entered with `cd` before the command or named by the program's own
 * directory flag (`npm --prefix web`, `pnpm -C web`, `yarn --cwd web`, `make -C native`, `git -C
 * repo`): `cd web`, `cd ./web/`, `--prefix web` and `cd /home/ana/shop/web` (an absolute path
 * also stands for each of its tails) are one project directory whatever the spelling, so a build
 * that failed in one spelling is resolved by a successful build in another (`successKeys`,
 * `resolvingKeys`).
 */
import { shellWords } from './shell-words.ts';

const SETUP = new Set(['cd', 'pushd', 'popd', 'mkdir', 'export', 'set', 'source', '.', 'true', 'sleep', 'clear']);
const WRAPPERS = new Set(['sudo', 'command', 'time', 'nohup', 'env', 'exec']);
/** Programs whose next word (and for `run`/`exec`, the one after) names what they do. */
const SUBCOMMANDS = new Set(['git', 'npm', 'yarn', 'pnpm', 'bun', 'cargo', 'go', 'docker', 'kubectl', 'make', 'pip', 'pip3', 'brew', 'gh', 'dotnet', 'mvn', 'gradle', 'deno']);
/** Launchers that run another program: `npx tsc`, `uv run pytest`, `poetry run python`. */
const LAUNCHERS = new Set(['npx', 'bunx', 'pnpx', 'uv', 'uvx', 'poetry', 'pipenv', 'pdm', 'rye']);
const DESTINATION_ONLY = new Set(['cp', 'mv', 'ln', 'install', 'rsync', 'scp']);
const SEARCHES = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack']);
/** Short search flags that take a value (`-A 3`), so the pattern is found after them. */
const SEARCH_VALUE_FLAGS = new Set(['-A', '-B', '-C', '-m', '-e', '-f', '-g', '-t', '--max-count', '--glob', '--type']);

/** Each program's flags that name the directory it runs in (`npm --prefix web run build`). */
const DIRECTORY_FLAGS: Record<string, readonly string[]> = {
  npm: ['--prefix', '-C'],
  pnpm: ['-C', '--dir'],
  yarn: ['--cwd'],
  bun: ['--cwd'],
  make: ['-C', '--directory'],
  gmake: ['-C', '--directory'],
  ninja: ['-C'],
  git: ['-C'],
};

/** A directory as a key: `./web/` and `web` are `web`, the current one is `''`, `a/../b` is `b`. */
export function directoryKey(path: string): string {
  const parts: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '.' || (segment === '' && parts.length > 0)) continue;
    if (segment === '..' && parts.length > 0 && parts[parts.length - 1] !== '..' && parts[parts.length - 1] !== '') parts.pop();
    else parts.push(segment);
  }
  return parts.join('/') || (path.startsWith('/') ? '/' : '');
}

/** The directory and the rest of a target key (`web|step:build`). */
function splitKey(key: string): [string, string] {
  const at = key.indexOf('|');
  return [key.slice(0, at), key.slice(at)];
}

/** The spellings of a directory a command could use: an absolute one also as each of its tails (`/home/ana/shop/web`: `shop/web`, `web`). */
function spellings(directory: string): string[] {
  if (!directory.startsWith('/')) return [directory];
  const parts = directory.split('/').filter((part) => part.length > 0);
  return [directory, ...parts.map((_, i) => parts.slice(i).join('/'))];
}

/** Keys under which a successful command is recorded: its own, and its directory's other spellings. */
export function successKeys(key: string): string[] {
  const [directory, rest] = splitKey(key);
  return spellings(directory).map((spelling) => spelling + rest);
}

/**
 * Keys whose later success resolves a failure with this key: the same command in the same directory
 * (any spelling); for a type check or build, also in a parent directory, whose check covers it
 * (a monorepo's root `npm run check` type-checks every package).
 */
export function resolvingKeys(key: string): string[] {
  const [directory, rest] = splitKey(key);
  const keys = spellings(directory).map((spelling) => spelling + rest);
  if (!rest.startsWith('|step:')) return keys;
  const absolute = directory.startsWith('/');
  const parts = directory.split('/').filter((part) => part.length > 0);
  for (let i = parts.length - 1; i >= (absolute ? 1 : 0); i--) keys.push((absolute ? '/' : '') + parts.slice(0, i).join('/') + rest);
  return keys;
}

/** Removes a program's directory flags from its words, and the directory they name (see `DIRECTORY_FLAGS`). */
function takeDirectory(words: readonly string[], program: string | undefined): { words: string[]; directory?: string } {
  const flags = program === undefined ? undefined : DIRECTORY_FLAGS[program];
  if (!flags) return { words: [...words] };
  const kept: string[] = [];
  let directory: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const flag = flags.find((candidate) => word === candidate || word.startsWith(`${candidate}=`));
    if (flag === undefined) {
      kept.push(word);
      continue;
    }
    directory = word === flag ? words[++i] : word.slice(flag.length + 1);
  }
  return directory === undefined ? { words: kept } : { words: kept, directory };
}

/**
 * Type checks and builds: which step a command runs, so `npm run check` passing resolves a type
 * error `npx tsc --noEmit` showed in the same directory, and `npm run build` a failed `tsgo -p`.
 */
function compileStep(head: readonly string[], words: readonly string[]): 'typecheck' | 'build' | undefined {
  const [program, sub, script] = head;
  const tool = program === 'npx' || program === 'bunx' || program === 'pnpx' ? sub : program;
  if (tool === 'tsc' || tool === 'tsgo' || tool === 'vue-tsc') return words.includes('--noEmit') ? 'typecheck' : 'build';
  if (program === 'npm' || program === 'yarn' || program === 'pnpm' || program === 'bun') {
    // yarn, pnpm and bun also run a package script without `run`: `pnpm build`.
    const name = sub === 'run' || sub === 'run-script' ? script : program === 'npm' ? undefined : sub;
    if (name === 'build' || name === 'compile') return 'build';
    if (name === 'check' || name === 'typecheck' || name === 'type-check' || name === 'tsc') return 'typecheck';
  }
  if (program === 'cargo' || program === 'go') return sub === 'build' ? 'build' : sub === 'check' || sub === 'vet' ? 'typecheck' : undefined;
  return undefined;
}

/** The most distinctive word of a search's pattern: `grep -A3 "def run_all" x.py` gives run_all. */
function searchKey(words: readonly string[]): string | undefined {
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (SEARCH_VALUE_FLAGS.has(word)) {
      i++;
      continue;
    }
    if (word.startsWith('-')) continue;
    const terms = word.match(/[A-Za-z_][\w]{2,}/g) ?? [];
    // Code identifiers (an inner capital, underscore or digit) before plain words, then the longest.
    const score = (term: string): number => (/[A-Z_\d]/.test(term.slice(1)) ? 100 : 0) + term.length;
    return terms.sort((a, b) => score(b) - score(a))[0];
  }
  return undefined;
}

function pathLike(word: string): boolean {
  return word.length > 1 && !word.startsWith('-') && (word.includes('/') || /^[\w@~.-]+\.\w{1,8}$/.test(word)) && !/^[\d.]+$/.test(word);
}

/** The key of one simple command (see the module comment), or undefined for setup commands. */
function commandTarget(words: readonly string[], currentDirectory: string): string | undefined {
  let start = 0;
  const raw = words.filter((word) => !/^\d?[<>]/.test(word));
  while (start < raw.length && (WRAPPERS.has(raw[start]!) || /^\w+=/.test(raw[start]!))) start++;
  const program = raw[start]?.split('/').pop();
  if (program === undefined || SETUP.has(program)) return undefined;
  const { words: plain, directory } = takeDirectory(raw, program);
  const cwd = directory === undefined ? currentDirectory : directory.startsWith('/') ? directoryKey(directory) : directoryKey(currentDirectory ? `${currentDirectory}/${directory}` : directory);
  if (SEARCHES.has(program)) {
    const pattern = searchKey(plain.slice(start));
    if (pattern !== undefined) return [cwd, `${program} ${pattern}`].join('|');
  }
  const head = [program];
  let i = start + 1;
  const takeWord = (): void => {
    while (i < plain.length && plain[i]!.startsWith('-')) i++;
    if (i < plain.length) head.push(plain[i++]!);
  };
  if (LAUNCHERS.has(program)) {
    if (plain[i] === 'run' || plain[i] === 'exec' || plain[i] === 'x') head.push(plain[i++]!);
    takeWord();
  } else if (SUBCOMMANDS.has(program)) {
    takeWord();
    if (head[1] === 'run' || head[1] === 'exec' || head[1] === 'run-script') takeWord();
  }
  const step = compileStep(head, plain);
  if (step !== undefined) return [cwd, `step:${step}`].join('|');
  const operands: string[] = [];
  for (; i < plain.length; i++) {
    const word = plain[i]!;
    if (/^-[a-zA-Z]$/.test(word)) {
      const value = plain[i + 1];
      if (value !== undefined && !value.startsWith('-') && (!pathLike(value) || /\s/.test(value))) {
        operands.push(`${word} ${value.replace(/\s+/g, ' ').trim()}`);
        i++;
      }
    } else if (pathLike(word)) operands.push(word.replace(/^\.\//, '').replace(/\/+$/, ''));
  }
  const kept = DESTINATION_ONLY.has(program) ? operands.filter((operand) => !operand.startsWith('-')).slice(-1) : operands;
  return [cwd, [...head, ...kept].join(' ')].join('|');
}

/** Splits a script at `&&`, `||`, `;` and newlines outside quotes. */
function segments(script: string): string[] {
  const out: string[] = [];
  let quote: string | undefined;
  let from = 0;
  for (let i = 0; i < script.length; i++) {
    const char = script[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\') i++;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === ';' || char === '\n' || ((char === '&' || char === '|') && script[i + 1] === char)) {
      out.push(script.slice(from, i));
      if (char !== ';' && char !== '\n') i++;
      from = i + 1;
    }
  }
  out.push(script.slice(from));
  return out.map((part) => part.trim()).filter((part) => part.length > 0);
}

/** Whether a segment pipes its output on (outside quotes): its exit status is the last command's. */
function piped(segment: string): boolean {
  return /\|/.test(segment.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, ''));
}

/**
 * The target keys of each command a script runs (setup commands left out), in order. `cdFailed`
 * leaves the `cd` directory out of the keys (the command never ran there). A segment that still
 * pipes into another program after the display filters are dropped (`npm run check | wc -l`)
 * proves nothing about its first command and gives no key.
 */
export function shellTargets(script: string, cdFailed = false): string[] {
  const keys: string[] = [];
  let cwd = '';
  // A command substitution is one opaque word: `cp $(npm root -g)/x.json dest` still copies to dest.
  const flat = script.replace(/\$\([^()]*\)/g, 'SUBST');
  for (const segment of segments(flat).slice(0, 100)) {
    const command = commandKey(segment);
    const words = shellWords(command)[0];
    if (words === undefined) continue;
    if (words[0] === 'cd') {
      const target = words[1] ?? '';
      cwd = cdFailed ? '' : directoryKey(target.startsWith('/') || !cwd ? target : `${cwd}/${target}`);
      continue;
    }
    if (piped(command)) continue;
    const key = commandTarget(words, cwd);
    if (key !== undefined) keys.push(key);
  }
  return keys;
}

/** The target a failed script most likely failed on: its last command's key (see `shellTargets`). */
export function failedTarget(script: string, errorText: string): string | undefined {
  const cdFailed = /\bcd\b[^\n]{0,40}(?:no such file|not a directory|can't cd)/i.test(errorText);
  const keys = shellTargets(script, cdFailed);
  return keys[keys.length - 1];
}

/** Output filters: a trailing `| tail -3` or `| grep error` changes what is shown, not what ran. */
const FILTER_TAIL = /\s*\|\s*(?:tail|head|grep|egrep|fgrep|rg|less|more)\b(?:[^|'"]|'[^']*'|"[^"]*")*$/;

/**
 * A command as a pairing key: whitespace collapsed, trailing output filters (`| tail -3`,
 * `| grep "error TS"`) and `2>&1` dropped, so `npm run check 2>&1 | tail -3` succeeding resolves
 * `npm run check 2>&1 | grep "error TS"` failing.
 */
export function commandKey(script: string): string {
  let command = script.replace(/\s+/g, ' ').trim();
  for (let i = 0; i < 10; i++) {
    const stripped = command.replace(FILTER_TAIL, '').replace(/\s*2>&1$/, '');
    if (stripped === command || stripped.length === 0) break;
    command = stripped;
  }
  return command;
}
