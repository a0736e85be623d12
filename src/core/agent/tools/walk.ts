/**
 * A bounded depth-first walk of the folder for `glob` and `grep`: entries in name order, `.git`
 * directories skipped, symlinks listed but never followed, `.gitignore` applied when honoured,
 * and the walk stops after `walkMaxEntries` entries, saying so.
 */
import type { FolderEntry } from '../types.ts';
import { throwIfStopped, type ToolEnv } from './common.ts';
import { lastMatch } from './gitignore.ts';
import { count, plural } from './limits.ts';
import { joinPath } from './paths.ts';

export interface WalkedEntry {
  path: string;
  kind: FolderEntry['kind'];
}

export interface WalkSummary {
  /** Entries listed (every kind). */
  visited: number;
  /** Entries hidden by `.gitignore`. */
  ignored: number;
  /** Symlinked entries not followed. */
  symlinks: number;
  /** Set when the walk stopped early: why, in words. */
  stopped?: string;
}

export interface WalkOptions {
  /** Whether to go into a directory (default: all). */
  enter?: (dir: string) => boolean;
}

/** The visitor returns 'stop' to end the walk (its own cap reached). */
export type Visitor = (entry: WalkedEntry) => void | 'stop' | Promise<void | 'stop'>;

/** Compares names the same way everywhere (code units, not locale). */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Walks `start` (a directory, root-relative) and calls `visit` for each entry below it. */
export async function walkTree(env: ToolEnv, start: string, signal: AbortSignal, visit: Visitor, options: WalkOptions = {}): Promise<WalkSummary> {
  const summary: WalkSummary = { visited: 0, ignored: 0, symlinks: 0 };
  // Depth first in name order, so entries come in path order (`src/lib/x.ts` before `src/main.ts`).
  const walk = async (dir: string): Promise<boolean> => {
    throwIfStopped(signal);
    const entries = [...(await env.folder.list(dir))].sort((a, b) => byName(a.name, b.name));
    const rules = env.ignore ? await env.ignore.rulesFor(dir) : [];
    for (const entry of entries) {
      if (summary.visited >= env.limits.walkMaxEntries) {
        summary.stopped = `stopped walking the folder after ${plural(env.limits.walkMaxEntries, 'entry', 'entries')} (the cap); narrow the path or pattern`;
        return false;
      }
      summary.visited++;
      const path = joinPath(dir, entry.name);
      if (entry.kind === 'directory' && entry.name === '.git') continue;
      if (rules.length > 0) {
        const rule = lastMatch(rules, path, entry.kind === 'directory');
        if (rule && !rule.negate) {
          summary.ignored++;
          continue;
        }
      }
      if (entry.kind === 'symlink') summary.symlinks++;
      if ((await visit({ path, kind: entry.kind })) === 'stop') {
        summary.stopped = 'stopped';
        return false;
      }
      if (entry.kind === 'directory' && (options.enter?.(path) ?? true) && !(await walk(path))) return false;
    }
    return true;
  };
  await walk(start);
  return summary;
}

/** Words about what a walk left out, for the end of a tool's output ('' when nothing). */
export function walkNotes(summary: WalkSummary): string[] {
  const notes: string[] = [];
  if (summary.stopped && summary.stopped !== 'stopped') notes.push(`[Cut: ${summary.stopped}; ${count(summary.visited)} entries were seen.]`);
  if (summary.ignored > 0) notes.push(`[${plural(summary.ignored, 'entry', 'entries')} hidden by .gitignore.]`);
  if (summary.symlinks > 0) notes.push(`[${plural(summary.symlinks, 'symlink')} not followed.]`);
  return notes;
}
