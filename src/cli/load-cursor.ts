/**
 * Cursor's chat store on the command line: a `state.vscdb` holds many conversations (composers),
 * the command line reads one. `state.vscdb` alone reads its only top-level conversation;
 * `state.vscdb#<composerId>` picks one (its sub-composers come with it as subagent threads). A
 * store of several is refused with the newest ones listed, each with the path that reads it.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { isSqliteHeader, type CursorComposer } from '../core/import/cursor-store.ts';
import { importText } from '../core/import/run.ts';
import { ImportFormatError, type ImportResult } from '../core/import/types.ts';
import { readCursorDatabase } from '../sqlite/cursor-db.ts';

/** Composers named in the refusal of a store of several. */
const LISTED = 10;

/** Is `path` (without a `#composer` suffix) an SQLite file? */
export function isSqliteFile(path: string): boolean {
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return false;
  const fd = openSync(path, 'r');
  try {
    const head = new Uint8Array(16);
    return readSync(fd, head, 0, 16, 0) === 16 && isSqliteHeader(head);
  } finally {
    closeSync(fd);
  }
}

/** `store.vscdb#id` split into the file and the composer, when the file is an SQLite database. */
export function cursorStorePath(path: string): { file: string; composerId?: string } | undefined {
  if (isSqliteFile(path)) return { file: path };
  const hash = path.lastIndexOf('#');
  if (hash <= 0 || !isSqliteFile(path.slice(0, hash))) return undefined;
  return { file: path.slice(0, hash), composerId: path.slice(hash + 1) };
}

function read(composer: CursorComposer): ImportResult {
  return importText(JSON.stringify(composer.document, null, 1), { format: 'cursor', fileName: `${composer.composerId}.json` });
}

/** One conversation of a Cursor chat store, its sub-composers as threads, the store's problems as issues. */
export async function importCursorStore(file: string, composerId?: string): Promise<ImportResult> {
  const name = basename(file);
  const { composers, problems } = await readCursorDatabase(readFileSync(file), name);
  let chosen: CursorComposer | undefined;
  if (composerId !== undefined) {
    chosen = composers.find((composer) => composer.composerId === composerId);
    if (!chosen) throw new ImportFormatError(`"${name}" has no conversation with composer id "${composerId}"; it has ${composers.length}: ${listing(file, composers)}.`);
  } else {
    const top = composers.filter((composer) => composer.parentId === undefined || !composers.some((other) => other.composerId === composer.parentId));
    if (top.length !== 1) throw new ImportFormatError(`"${name}" holds ${top.length} Cursor conversations; the command line reads one: pass ${listing(file, top)}.`);
    chosen = top[0]!;
  }
  const result = read(chosen);
  const children = composers.filter((composer) => composer.parentId === chosen.composerId);
  if (children.length > 0) result.threads = children.map(read);
  const own = problems.filter((problem) => problem.key.includes(chosen.composerId));
  for (const problem of own) result.issues.push({ line: 0, kind: 'malformed', message: `${problem.key}: ${problem.message}` });
  result.issueCount = (result.issueCount ?? 0) + own.length;
  return result;
}

function listing(file: string, composers: readonly CursorComposer[]): string {
  const shown = composers.slice(0, LISTED).map((composer) => `"${file}#${composer.composerId}" (${composer.name})`).join(', ');
  return composers.length > LISTED ? `${shown} and ${composers.length - LISTED} more` : shown;
}
