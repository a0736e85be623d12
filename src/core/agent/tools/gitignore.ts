/**
 * `.gitignore` for the folder tools, the common subset git documents: blank lines and `#`
 * comments, `!` negation, a trailing `/` for directories only, a leading or middle `/` anchoring
 * the pattern to the file's own directory (otherwise it matches a name at any depth below it),
 * `*`, `?`, `[...]`, `**`, backslash escapes. Nested `.gitignore` files apply below their
 * directory and override their parents (the last matching rule wins); nothing inside an ignored
 * directory can be re-included. `.git/info/exclude` and global excludes are not read.
 */
import type { Folder } from '../types.ts';
import { globSource } from './glob-pattern.ts';
import { GITIGNORE_MAX_BYTES } from './limits.ts';
import { baseName, joinPath } from './path-parts.ts';

export interface IgnoreRule {
  /** The line as written (trimmed). */
  text: string;
  /** The `.gitignore` it comes from, root-relative (`.gitignore`, `src/.gitignore`). */
  source: string;
  /** 1-based line in that file. */
  line: number;
  negate: boolean;
  dirOnly: boolean;
  /** Matched against the path relative to `base` when anchored, else against the name. */
  anchored: boolean;
  regex: RegExp;
  /** Directory of the `.gitignore` ('' for the root). */
  base: string;
}

/** The rules of one `.gitignore` text; invalid lines (a lone `!`, a pattern git cannot read) are skipped. */
export function parseGitignore(text: string, base = '', source = joinPath(base, '.gitignore')): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  text.split(/\r?\n/).forEach((rawLine, index) => {
    // Trailing spaces are dropped unless escaped with a backslash.
    let line = rawLine.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) return;
    let negate = false;
    if (line.startsWith('!')) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith('/') && !line.endsWith('\\/')) {
      dirOnly = true;
      line = line.replace(/\/+$/, '');
    }
    if (line === '') return;
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    let regex: RegExp;
    try {
      regex = new RegExp(`^${globSource(line, { braces: false })}$`);
    } catch {
      return;
    }
    rules.push({ text: rawLine.trim(), source, line: index + 1, negate, dirOnly, anchored, regex, base });
  });
  return rules;
}

/** The last rule of `rules` that matches `path` (root-relative), or undefined. */
export function lastMatch(rules: readonly IgnoreRule[], path: string, isDir: boolean): IgnoreRule | undefined {
  let found: IgnoreRule | undefined;
  for (const rule of rules) {
    if (rule.dirOnly && !isDir) continue;
    if (rule.base !== '' && !path.startsWith(`${rule.base}/`)) continue;
    const relative = rule.base === '' ? path : path.slice(rule.base.length + 1);
    if (rule.regex.test(rule.anchored ? relative : baseName(relative))) found = rule;
  }
  return found;
}

/**
 * Reads `.gitignore` files lazily (each at most once) and answers whether a path is ignored.
 * `rulesFor(dir)` are the rules of the root down to `dir`, in the order they apply.
 */
export class GitignoreMatcher {
  private readonly own = new Map<string, Promise<IgnoreRule[]>>();

  constructor(private readonly folder: Folder) {}

  /** The rules of `dir/.gitignore` alone ([] when there is none or it cannot be read). */
  rulesOf(dir: string): Promise<IgnoreRule[]> {
    let rules = this.own.get(dir);
    if (!rules) {
      const path = joinPath(dir, '.gitignore');
      rules = (async () => {
        const stat = await this.folder.stat(path);
        if (!stat || stat.kind !== 'file') return [];
        const bytes = await this.folder.read(path, { length: GITIGNORE_MAX_BYTES });
        return parseGitignore(new TextDecoder().decode(bytes), dir, path);
      })().catch(() => []);
      this.own.set(dir, rules);
    }
    return rules;
  }

  /** The rules that apply to entries of `dir`: its own and every ancestor's, root first. */
  async rulesFor(dir: string): Promise<IgnoreRule[]> {
    const dirs = [''];
    if (dir !== '') dir.split('/').forEach((_, i, parts) => dirs.push(parts.slice(0, i + 1).join('/')));
    const all: IgnoreRule[] = [];
    for (const d of dirs) all.push(...(await this.rulesOf(d)));
    return all;
  }

  /** The rule that ignores `path` itself (its directory's rules only), or undefined. */
  async ignoredEntry(path: string, isDir: boolean): Promise<IgnoreRule | undefined> {
    const slash = path.lastIndexOf('/');
    const rule = lastMatch(await this.rulesFor(slash < 0 ? '' : path.slice(0, slash)), path, isDir);
    return rule && !rule.negate ? rule : undefined;
  }

  /** The rule that ignores `path` or one of its ancestor directories, or undefined. */
  async ignoredPath(path: string, isDir: boolean): Promise<IgnoreRule | undefined> {
    if (path === '') return undefined;
    const parts = path.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const rule = await this.ignoredEntry(parts.slice(0, i).join('/'), i < parts.length || isDir);
      if (rule) return rule;
    }
    return undefined;
  }
}
