/**
 * Confinement of the paths a model names: every tool turns its input into a path relative to the
 * folder's root, refuses one that is absolute or climbs out with `..`, follows a symlink only when
 * the folder says it stays inside, and (when asked) refuses what `.gitignore` hides. The reason of
 * a refusal is one sentence the model can act on.
 */
import type { Folder, FolderStat } from '../types.ts';
import type { GitignoreMatcher } from './gitignore.ts';
export { baseName, dirName, joinPath } from './path-parts.ts';

/** A path the folder tools will not touch, with the reason. */
export class FolderPathError extends Error {
  override name = 'FolderPathError';
  constructor(readonly path: string, message: string) {
    super(message);
  }
}

/** How a path is shown to the model: the root is `.`. */
export function shownPath(path: string): string {
  return path === '' ? '.' : path;
}

/**
 * `raw` as a root-relative path: separators unified to '/', '.' and empty segments dropped, '..'
 * applied. Throws FolderPathError for an absolute path (`/x`, `C:\x`, `\\server`, `~/x`), a NUL
 * character, or a '..' that climbs above the root.
 */
export function normalizeToolPath(raw: string): string {
  if (raw.includes('\0')) throw new FolderPathError(raw, `Refused "${raw}": the path contains a NUL character.`);
  const unified = raw.trim().replace(/\\/g, '/');
  if (unified.startsWith('/') || /^[a-zA-Z]:/.test(unified) || unified === '~' || unified.startsWith('~/')) {
    throw new FolderPathError(raw, `Refused "${raw}": absolute paths are not allowed; give a path relative to the folder's root (e.g. "src/main.ts").`);
  }
  const out: string[] = [];
  for (const segment of unified.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) throw new FolderPathError(raw, `Refused "${raw}": ".." leads outside the folder; paths must stay inside it.`);
      out.pop();
    } else {
      out.push(segment);
    }
  }
  return out.join('/');
}

/** What a tool needs to reach the folder. */
export interface PathScope {
  folder: Folder;
  /** Present when the user asked for `.gitignore` to be honoured. */
  ignore?: GitignoreMatcher;
}

export interface ResolvedPath {
  /** The path as the model gave it, normalized. */
  path: string;
  /** Where it really is (differs from `path` through a symlink inside the folder). */
  real: string;
  stat: FolderStat;
}

/**
 * The path confined to the folder, with its stat. Throws FolderPathError when it escapes, when a
 * symlink leads outside (or the folder cannot tell where it leads), when nothing is there, or when
 * `.gitignore` hides it.
 */
export async function resolveToolPath(scope: PathScope, raw: string): Promise<ResolvedPath> {
  const path = normalizeToolPath(raw);
  const { folder } = scope;
  let real = path;
  if (folder.realPath) {
    const target = await folder.realPath(path);
    if (target === undefined) {
      // Nothing there, or a symlink on the way that leads outside: the first symlink found says which.
      const parts = path.split('/');
      for (let i = 1; i <= parts.length; i++) {
        const prefix = parts.slice(0, i).join('/');
        const stat = await folder.stat(prefix).catch(() => undefined);
        if (stat === undefined) break;
        if (stat.kind === 'symlink') {
          throw new FolderPathError(path, `Refused "${shownPath(path)}": ${prefix === path ? 'it is' : `"${prefix}" is`} a symlink that leads outside the folder (or cannot be resolved).`);
        }
      }
      throw new FolderPathError(path, `No such file or directory: "${shownPath(path)}".`);
    }
    real = normalizeToolPath(target);
  }
  const stat = await folder.stat(real);
  if (stat === undefined) throw new FolderPathError(path, `No such file or directory: "${shownPath(path)}".`);
  if (stat.kind === 'symlink') {
    throw new FolderPathError(path, `Refused "${shownPath(path)}": it is a symlink and this folder cannot tell where it leads.`);
  }
  if (scope.ignore) {
    for (const candidate of real === path ? [path] : [path, real]) {
      const rule = await scope.ignore.ignoredPath(candidate, stat.kind === 'directory');
      if (rule) throw new FolderPathError(path, `Refused "${shownPath(path)}": it is ignored by ${rule.source} line ${rule.line} ("${rule.text}"), and .gitignore is honoured in this session.`);
    }
  }
  return { path, real, stat };
}

