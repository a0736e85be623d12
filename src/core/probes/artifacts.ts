/**
 * Artifact probes: each file the agent created, modified, deleted or read, from its tool calls.
 *
 * Rules:
 * - One probe per file per kind, from the first call that touched it that way; a call whose result
 *   is an error or a refusal touched nothing. A call without a result (aborted) still counts as a
 *   write, never as a read (the agent saw nothing).
 * - A file that was ever created, modified or deleted gets no 'read' probe: the write probe already
 *   asks for the file, and reading before editing is routine. A file created in the session and
 *   edited afterwards gets no 'modified' probe: "created" is what a reader states about it.
 * - A file that was deleted gets one probe, for what it is at the end: 'deleted' when the last
 *   write deleted it (created or edited before, it is gone), else (deleted, then written again,
 *   as `rm main.ts && mv main-new.ts main.ts` does) 'modified' when it existed before the
 *   session and 'created' when the session made it.
 * - Paths are compared relative to the project root: the deepest directory shared by every
 *   absolute path (outside /tmp, /var, /dev, /private, /proc), cut above a usual project
 *   subdirectory (src, lib, test, packages…), when it is at least two levels deep (one when it
 *   was cut above such a subdirectory).
 *   A relative path names the same file as an absolute one that ends with it.
 * - Needles, one alternative each: the path as written, the root-relative path, and the basename
 *   when it is distinctive (at least 6 characters, not a generic name such as index.ts or
 *   README.md, and no other file of the journal shares it). Needles match at a word start, so
 *   "renderer.py" also matches inside "claude_code_log/renderer.py".
 */
import type { CallRecord } from './calls.ts';
import { makeProbe } from './make.ts';
import { normalizeForMatch } from './normalize.ts';
import { isRefusal } from './sources.ts';
import { callEffects, type FileKind } from './tools.ts';
import type { Probe } from './types.ts';

const GENERIC_BASENAMES = new Set([
  'index.ts', 'index.tsx', 'index.js', 'index.jsx', 'index.mjs', 'index.html', 'index.md', 'main.ts', 'main.js', 'main.py', 'main.go', 'main.rs',
  'mod.rs', 'lib.rs', 'utils.ts', 'utils.js', 'utils.py', 'types.ts', 'config.ts', 'config.js', 'config.json', 'config.yaml', 'config.yml',
  'setup.py', '__init__.py', 'readme.md', 'changelog.md', 'license', 'license.md', 'package.json', 'tsconfig.json', 'cargo.toml', 'go.mod',
  'makefile', 'dockerfile', 'settings.json', 'pyproject.toml', 'requirements.txt', 'test.ts', 'test.js', 'test.py', 'app.tsx', 'app.ts', 'app.js',
  'styles.css', 'style.css', 'output.txt', 'notes.md', 'todo.md', 'claude.md', 'agents.md',
]);

const PROJECT_SUBDIRS = new Set(['src', 'lib', 'test', 'tests', 'spec', 'packages', 'app', 'apps', 'source', 'include', 'docs', 'scripts', 'bin', 'cmd', 'internal', 'pkg', 'crates', 'public', 'assets']);

const SYSTEM_DIRS = /^\/(tmp|var|dev|private|proc|sys|etc|usr)\//;

/** The deepest directory (ending in `/`) shared by every absolute project path, or undefined. */
export function projectRoot(paths: readonly string[]): string | undefined {
  let common: string[] | undefined;
  for (const path of paths) {
    if (!path.startsWith('/') || SYSTEM_DIRS.test(path)) continue;
    const dirs = path.split('/').slice(0, -1);
    if (common === undefined) common = dirs;
    else {
      let i = 0;
      while (i < common.length && i < dirs.length && common[i] === dirs[i]) i++;
      common = common.slice(0, i);
    }
  }
  if (common === undefined) return undefined;
  // A project's own subdirectories are not its root: /repo/src/a.ts and /repo/src/b.ts give /repo/.
  const inner = common.findIndex((dir, i) => i >= 2 && PROJECT_SUBDIRS.has(dir));
  if (inner >= 0) common = common.slice(0, inner);
  // ['', 'Users', 'dain'] is two levels deep; one level (/repo/) is enough above a project subdirectory.
  if (common.length < (inner >= 0 ? 2 : 3)) return undefined;
  return `${common.join('/')}/`;
}

interface FileRecord {
  /** The path as first written. */
  path: string;
  /** Root-relative when under the root, else the path without a leading `./`. */
  key: string;
  absolute: boolean;
  first: Partial<Record<FileKind, CallRecord>>;
  /** Every write (created, modified, deleted) in call order. */
  writes: Array<{ kind: FileKind; record: CallRecord }>;
}

/** Suffixes of an absolute path that a relative path could name: `/a/b/c.ts` gives `b/c.ts`, `c.ts`. */
function suffixes(absolute: string): string[] {
  const parts = absolute.split('/').filter((part) => part.length > 0);
  return parts.slice(1).map((_, i) => parts.slice(i + 1).join('/'));
}

function basename(path: string): string {
  return path.replace(/\/+$/, '').split('/').pop() ?? path;
}

const KIND_ORDER: FileKind[] = ['created', 'modified', 'deleted', 'read'];

/** Artifact probes of the calls (see the module comment for the rules), in entry order. */
export function artifactProbes(calls: readonly CallRecord[], root: string | undefined): Probe[] {
  const effects: Array<{ record: CallRecord; path: string; kind: FileKind }> = [];
  for (const record of calls) {
    const result = record.result;
    if (result && (result.isError || isRefusal(result.text))) continue;
    // A read the user cut off before it returned showed the agent nothing.
    for (const effect of callEffects(record.call, result?.text ?? '')) if (result || effect.kind !== 'read') effects.push({ record, path: effect.path, kind: effect.kind });
  }
  const files: FileRecord[] = [];
  const byKey = new Map<string, FileRecord>();
  const bySuffix = new Map<string, FileRecord>();
  for (const { record, path, kind } of effects) {
    const cleaned = path.replace(/^\.\//, '');
    const key = root && cleaned.startsWith(root) ? cleaned.slice(root.length) : cleaned;
    const absolute = key.startsWith('/');
    let file = byKey.get(key) ?? (absolute ? undefined : bySuffix.get(key));
    if (!file && absolute) {
      for (const suffix of suffixes(key)) {
        const candidate = byKey.get(suffix);
        if (candidate && !candidate.absolute) {
          file = candidate;
          break;
        }
      }
    }
    if (!file) {
      file = { path: cleaned, key, absolute, first: {}, writes: [] };
      files.push(file);
      byKey.set(key, file);
      if (absolute) for (const suffix of suffixes(key)) if (!bySuffix.has(suffix)) bySuffix.set(suffix, file);
    }
    if (!file.first[kind]) file.first[kind] = record;
    if (kind !== 'read') file.writes.push({ kind, record });
  }
  const basenameCount = new Map<string, number>();
  for (const file of files) {
    const name = basename(file.key).toLowerCase();
    basenameCount.set(name, (basenameCount.get(name) ?? 0) + 1);
  }
  const probes: Probe[] = [];
  for (const file of files) {
    const written = file.first.created || file.first.modified || file.first.deleted;
    const alternatives: string[][] = [];
    const add = (text: string): void => {
      const needle = normalizeForMatch(text);
      if (needle.length > 0 && !alternatives.some((alternative) => alternative[0] === needle)) alternatives.push([needle]);
    };
    add(file.path);
    add(file.key);
    const name = basename(file.key);
    if (name.length >= 6 && !GENERIC_BASENAMES.has(name.toLowerCase()) && basenameCount.get(name.toLowerCase()) === 1) add(name);
    const deletions = file.writes.filter((write) => write.kind === 'deleted');
    if (deletions.length > 0) {
      // A file that ends deleted is stated as deleted; one deleted and written again is stated by
      // what it is at the end: modified when it existed before the session, else created.
      const last = file.writes[file.writes.length - 1]!;
      const kind: FileKind = last.kind === 'deleted' ? 'deleted' : file.writes[0]!.kind === 'created' ? 'created' : 'modified';
      const record = kind === 'deleted' ? deletions[0]!.record : (file.writes.find((write) => write.kind === kind) ?? last).record;
      probes.push(makeProbe('artifact', kind, file.key, { entry: record.entry, index: record.index }, alternatives));
      continue;
    }
    for (const kind of KIND_ORDER) {
      const record = file.first[kind];
      if (!record || (kind === 'read' && written)) continue;
      // A file the session created and then edited is stated as created: the edits are part of making it.
      if (kind === 'modified' && file.first.created && file.first.created.index <= record.index) continue;
      probes.push(makeProbe('artifact', kind, file.key, { entry: record.entry, index: record.index }, alternatives));
    }
  }
  return probes.sort((a, b) => a.entryIndex - b.entryIndex);
}
