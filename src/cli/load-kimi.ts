/**
 * A Kimi CLI session folder on disk (`~/.kimi/sessions/<work dir>/<session id>/`) read as its
 * session: its `wire.jsonl` streamed through the import, then the folder's session id, title and
 * subagent descriptions applied (core/import/kimi-folder.ts).
 */
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { kimiContextOrder } from '../core/import/kimi-context.ts';
import { kimiWirePath, readKimiFolder, withKimiFolder } from '../core/import/kimi-folder.ts';
import type { FolderFile } from '../core/import/opencode-folder.ts';
import { ImportSession } from '../core/import/run.ts';
import type { ImportResult } from '../core/import/types.ts';
import { pathsUnder } from './paths-under.ts';


/** Is `dir` a Kimi CLI session folder? */
export function isKimiFolder(dir: string): boolean {
  return kimiWirePath(pathsUnder(dir)) === 'wire.jsonl';
}

/** The session of a Kimi CLI session folder, or undefined when `dir` is none. */
export async function importKimiFolder(dir: string): Promise<ImportResult | undefined> {
  const paths = pathsUnder(dir);
  const wire = kimiWirePath(paths);
  if (wire !== 'wire.jsonl') return undefined;
  const wireFile = join(dir, wire);
  const session = new ImportSession({ fileName: 'wire.jsonl', size: statSync(wireFile).size, format: 'kimi' });
  for await (const chunk of createReadStream(wireFile, { highWaterMark: 1 << 20 })) session.push(chunk as Uint8Array);
  // The JSON files, and the context files that hold the compaction summaries.
  const json: FolderFile[] = paths.filter((path) => path.endsWith('.json') || kimiContextOrder(path) !== undefined).map((path) => ({ path, text: readFileSync(join(dir, path), 'utf8') }));
  const { info, problems } = readKimiFolder(wire, json, basename(resolve(dir)));
  const result = withKimiFolder(session.finish(), info);
  for (const problem of problems) result.issues.push({ line: 0, kind: 'malformed', message: `${problem.path}: ${problem.message}; skipped` });
  result.issueCount = (result.issueCount ?? 0) + problems.length;
  return result;
}
