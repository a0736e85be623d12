/**
 * Which files `eval` reads under the paths it is given, and which it skips and why. A folder is
 * walked for transcripts (`.jsonl`, `.json`), except an opencode storage folder or a Cline task folder, read as one session; a Claude Code subagent's `agent-<id>.meta.json` is
 * read with its transcript, never as one; a binary file (a gzip archive, a file of zeros) is refused
 * by the same test the import uses; everything else found is listed as skipped with the reason, so
 * an eval that reads nothing says what it saw.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { binaryReason, SNIFF_BYTES } from '../core/import/binary.ts';
import { storePath } from './load-store.ts';
import { isDroidSettingsName } from '../core/import/droid-settings.ts';
import { isSubagentMetaName, parseSubagentMeta, subagentMetaNameOf, subagentTranscriptNameOf } from '../core/import/subagent-meta.ts';
import type { SubagentLink } from '../core/import/types.ts';
import { isSessionFolder } from './load.ts';

const SUPPORTED = /\.(jsonl|json)$/i;

/** A file or folder `eval` did not read, with why. */
export interface SkippedFile {
  file: string;
  reason: string;
}

export interface EvalInputs {
  /** Transcript files, absolute, sorted, each once. */
  files: string[];
  skipped: SkippedFile[];
}

/** The transcripts under `paths` and what was skipped. A missing path throws ENOENT, named by the caller. */
export function findEvalInputs(paths: readonly string[]): EvalInputs {
  const found = new Set<string>();
  const skipped: SkippedFile[] = [];
  const skip = (path: string, reason: string) => skipped.push({ file: shownPath(path), reason });
  const add = (path: string) => {
    const binary = binaryReason(firstBytes(path));
    if (binary !== undefined) skip(path, `binary file (${binary}), not a JSON or JSONL transcript`);
    else found.add(resolve(path));
  };
  const consider = (path: string, named: boolean) => {
    const name = basename(path);
    if (isSubagentMetaName(name)) {
      const transcript = join(dirname(path), subagentTranscriptNameOf(name));
      if (!existsSync(transcript)) skip(path, `subagent metadata without its transcript ${basename(transcript)}`);
      // Found in a folder beside its transcript, it is read with it and is not a skip.
      else if (named) skip(path, `subagent metadata, read with its transcript: evaluate ${shownPath(transcript)} or its folder`);
    } else if (isDroidSettingsName(name) && !named && existsSync(join(dirname(path), name.replace(/\.settings\.json$/i, '.jsonl')))) {
      // A Factory Droid session's settings, read with the session file beside it.
    } else if (SUPPORTED.test(name)) add(path);
    else skip(path, 'not a transcript (.jsonl or .json)');
  };
  const walk = (path: string) => {
    for (const name of readdirSync(path).sort()) {
      const child = join(path, name);
      if (name === 'node_modules') skip(child, 'dependencies folder, not searched');
      else if (name.startsWith('.')) skip(child, 'hidden, not searched');
      else if (statSync(child).isDirectory()) folder(child);
      else consider(child, false);
    }
  };
  // An opencode storage folder or a Cline task folder is one session (its files are parts of it), not a folder of transcripts.
  const folder = (path: string) => {
    if (isSessionFolder(path)) found.add(resolve(path));
    else walk(path);
  };
  for (const path of paths) {
    // An agent's SQLite store (state.vscdb, opencode.db, or either #<conversation id>) is read by its own reader.
    const store = storePath(path);
    if (store) found.add(store.id === undefined ? resolve(store.file) : `${resolve(store.file)}#${store.id}`);
    else if (statSync(path).isDirectory()) folder(path);
    else if (isSubagentMetaName(basename(path))) consider(path, true);
    else add(path);
  }
  return { files: [...found].sort(), skipped };
}

/** The first SNIFF_BYTES of a file (fewer when it is shorter). */
function firstBytes(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const buffer = new Uint8Array(SNIFF_BYTES);
    return buffer.subarray(0, readSync(fd, buffer, 0, SNIFF_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

/** The subagent metadata beside a transcript (`agent-<id>.meta.json`), read; undefined when there is none. */
export function readSubagentMetaBeside(file: string): Pick<SubagentLink, 'agentType' | 'description'> | undefined {
  const name = subagentMetaNameOf(basename(file));
  if (name === undefined) return undefined;
  const path = join(dirname(file), name);
  if (!existsSync(path)) return undefined;
  return parseSubagentMeta(readFileSync(path, 'utf8'), name);
}

/** A path as the report shows it: relative to the working directory. */
export function shownPath(path: string): string {
  return relative(process.cwd(), resolve(path)) || path;
}

/** Why an eval that produced no row has nothing to show: each skipped file or failed file, one per line. */
export function nothingEvaluated(paths: readonly string[], skipped: readonly SkippedFile[], failed: ReadonlyArray<{ file: string; error?: string }>): string {
  const lines = [
    ...failed.map((file) => `  ${file.file}: ${file.error ?? 'no conversation'}`),
    ...skipped.map((file) => `  ${file.file}: skipped, ${file.reason}`),
  ];
  return `Nothing to evaluate under ${paths.join(', ')}${lines.length > 0 ? `:\n${lines.join('\n')}` : ': no file was found there.'}`;
}

/** Whether an eval gave at least one row that was evaluated (not an error). */
export function evaluatedAny(report: { files: ReadonlyArray<{ error?: string }> }): boolean {
  return report.files.some((file) => file.error === undefined);
}

/** The skipped files, one line each (empty when none). */
export function formatEvalSkipped(report: { skipped: readonly SkippedFile[] }): string {
  return report.skipped.map((file) => `skipped ${file.file}: ${file.reason}`).join('\n');
}
