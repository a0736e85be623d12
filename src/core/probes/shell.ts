/**
 * Just enough shell reading to see which files a command clearly touches: `rm`, `mv`, `cp`,
 * `touch`, `tee`, `sed -i`, stdout redirects (`>`, `>>`) as writes; `cat`, `head`, `tail`, `nl`,
 * `sed -n` as reads, from the words `shellWords` reads (quotes honoured, heredoc bodies and comments
 * skipped, the one shell reading the summarizer uses too); anything unclear ignored. A relative path is read from the directory entered with `cd` before it in the same
 * script (`cd src && sed -i … index.ts` modifies `src/index.ts`); `mv a.ts b.ts dir/` moves each
 * file into the directory (deleted where it was, created there).
 */

import { shellWords } from '../reading/shell-words.ts';

export interface ShellEffect {
  path: string;
  kind: 'created' | 'modified' | 'deleted' | 'read';
}

function looksLikePath(word: string): boolean {
  if (word.length === 0 || word.length > 400 || word.startsWith('-') || !/^[\w@~./+,:=-]+$/.test(word)) return false;
  if (word.startsWith('/dev/') || word === '.' || word === '..' || word === '~' || word === '/') return false;
  return /[./]/.test(word) || /^[\w-]+$/.test(word);
}

/** The program of each simple command of a script (`cd x && npm test | tail` gives cd, npm, tail). */
export function programs(script: string): string[] {
  return shellWords(script)
    .slice(0, 200)
    .flatMap((words) => {
      const plain = words.filter((word) => !/^\d?[<>]/.test(word));
      let start = 0;
      while (start < plain.length && (WRAPPERS.has(plain[start]!) || /^\w+=/.test(plain[start]!))) start++;
      const program = plain[start];
      return program === undefined ? [] : [program.split('/').pop()!];
    });
}

const WRAPPERS = new Set(['sudo', 'command', 'time', 'nohup', 'env', 'xargs', 'exec']);

/** `path` read from the directory `cwd` (`''`: where the script started): `src` + `../a.ts` gives `a.ts`. */
function resolvePath(cwd: string, path: string): string {
  if (cwd === '' || path.startsWith('/') || path.startsWith('~')) return path;
  const parts = cwd.split('/');
  for (const part of path.split('/')) {
    if (part === '.' || part === '') continue;
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..' && parts[parts.length - 1] !== '') parts.pop();
    else parts.push(part);
  }
  return parts.join('/') || '.';
}

/** Whether an operand names a file (an extension after its last slash), not a directory. */
function isFileName(word: string): boolean {
  return /\.[\w-]+$/.test(word.split('/').pop() ?? '') && !word.endsWith('/');
}

/** Files a shell script clearly creates, modifies, deletes or reads, in order. */
export function shellEffects(script: string): ShellEffect[] {
  const raw: ShellEffect[] = [];
  let cwd = '';
  for (const words of shellWords(script).slice(0, 200)) {
    const effects: ShellEffect[] = [];
    if (words[0] === 'cd') {
      const target = words[1];
      cwd = target === undefined || target === '~' || !looksLikePath(target) ? '' : resolvePath(cwd, target.replace(/\/+$/, ''));
      continue;
    }
    // Redirects anywhere in the command.
    for (let i = 0; i < words.length - 1; i++) {
      const op = words[i]!;
      if (op !== '>' && op !== '>>' && op !== '1>' && op !== '>|') continue;
      const target = words[i + 1]!;
      if (looksLikePath(target)) effects.push({ path: target, kind: op === '>>' ? 'modified' : 'created' });
    }
    const plain = words.filter((word, i) => !/^\d?[<>]/.test(word) && !(i > 0 && /^\d?[<>]+&?$/.test(words[i - 1]!)));
    let start = 0;
    while (start < plain.length && (WRAPPERS.has(plain[start]!) || /^\w+=/.test(plain[start]!))) start++;
    const program = plain[start];
    if (program === undefined) continue;
    const name = program.split('/').pop()!;
    const args = plain.slice(start + 1).filter((arg) => arg.length > 0);
    const operands = args.filter((arg) => !arg.startsWith('-'));
    const flags = args.filter((arg) => arg.startsWith('-'));
    switch (name) {
      case 'rm':
      case 'unlink':
        for (const path of operands) if (looksLikePath(path)) effects.push({ path, kind: 'deleted' });
        break;
      case 'mv': {
        const target = operands[operands.length - 1];
        const sources = operands.slice(0, -1);
        if (target === undefined || sources.length === 0 || !sources.every(looksLikePath)) break;
        const intoDirectory = target.endsWith('/') || target === '.' || target === '..' || sources.length > 1;
        if (!intoDirectory && looksLikePath(target)) effects.push({ path: sources[0]!, kind: 'deleted' }, { path: target, kind: 'created' });
        else if (intoDirectory) {
          // Files moved into a directory keep their names there; directories moved whole are not followed.
          for (const source of sources.filter(isFileName)) {
            effects.push({ path: source, kind: 'deleted' }, { path: `${target.replace(/\/+$/, '')}/${source.split('/').pop()!}`, kind: 'created' });
          }
        }
        break;
      }
      case 'cp':
        if (operands.length === 2 && looksLikePath(operands[1]!) && !operands[1]!.endsWith('/') && !flags.some((flag) => /r|R/.test(flag))) {
          effects.push({ path: operands[1]!, kind: 'created' });
        }
        break;
      case 'touch':
        for (const path of operands) if (looksLikePath(path)) effects.push({ path, kind: 'created' });
        break;
      case 'tee':
        for (const path of operands) if (looksLikePath(path)) effects.push({ path, kind: flags.includes('-a') ? 'modified' : 'created' });
        break;
      case 'sed': {
        const inPlace = flags.some((flag) => flag === '-i' || flag.startsWith('-i') || flag === '--in-place');
        const quiet = flags.includes('-n');
        // The first operand is the script (unless given with -e); the rest are files.
        const files = args.some((arg) => arg === '-e') ? operands : operands.slice(1);
        for (const path of files) if (looksLikePath(path) && /\.\w+$|\//.test(path) && path !== "''") {
          if (inPlace) effects.push({ path, kind: 'modified' });
          else if (quiet) effects.push({ path, kind: 'read' });
        }
        break;
      }
      case 'cat':
      case 'head':
      case 'tail':
      case 'nl':
      case 'less':
      case 'more': {
        const numeric = new Set<number>();
        args.forEach((arg, i) => {
          if (/^-[nc]$/.test(arg)) numeric.add(i + 1);
        });
        args.forEach((arg, i) => {
          if (!arg.startsWith('-') && !numeric.has(i) && looksLikePath(arg) && /\.\w+$|\//.test(arg)) effects.push({ path: arg, kind: 'read' });
        });
        break;
      }
    }
    for (const effect of effects) raw.push({ path: resolvePath(cwd, effect.path), kind: effect.kind });
  }
  return raw;
}
