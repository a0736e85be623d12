/**
 * A Kimi Code session folder on disk (`~/.kimi-code/sessions/<work dir>/session_<uuid>/`) read as
 * its session: each agent's `agents/<id>/wire.jsonl` streamed through the import, the main agent's
 * as the session (titled by `state.json`), the others as its subagent threads
 * (core/import/kimi-code-folder.ts).
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { isKimiCodeState, kimiCodeFolderPrefix, linkKimiCodeSubagents, planKimiCodeFolder, withKimiCodeAgent } from '../core/import/kimi-code-folder.ts';
import { ImportSession } from '../core/import/run.ts';
import type { ImportResult } from '../core/import/types.ts';
import { pathsUnder } from './paths-under.ts';


/** Is `dir` a Kimi Code session folder: `state.json` with an `agents/` folder, or a Kimi Code `state.json` whose wires are missing? */
export function isKimiCodeFolder(dir: string): boolean {
  if (kimiCodeFolderPrefix(pathsUnder(dir)) === '') return true;
  const state = join(dir, 'state.json');
  return existsSync(state) && !existsSync(join(dir, 'wire.jsonl')) && isKimiCodeState(readFileSync(state, 'utf8'));
}

async function importWire(file: string): Promise<ImportResult> {
  const session = new ImportSession({ fileName: file, size: statSync(file).size, format: 'kimi-code' });
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) session.push(chunk as Uint8Array);
  return session.finish();
}

/** The session of a Kimi Code session folder with its subagents as threads, or undefined when `dir` is none. */
export async function importKimiCodeFolder(dir: string): Promise<ImportResult | undefined> {
  if (!isKimiCodeFolder(dir)) return undefined;
  const statePath = join(dir, 'state.json');
  const plan = planKimiCodeFolder(pathsUnder(dir), '', existsSync(statePath) ? readFileSync(statePath, 'utf8') : undefined, basename(resolve(dir)));
  const [main, ...others] = plan.agents;
  const session = withKimiCodeAgent(await importWire(join(dir, main!.path)), main!.info);
  const subagents: ImportResult[] = [];
  const problems = plan.problems.map((problem) => `${problem.path}: ${problem.message}; the session is named by its folder`);
  for (const { info, path } of others) {
    try {
      subagents.push(withKimiCodeAgent(await importWire(join(dir, path)), info));
    } catch (error) {
      // One subagent's unreadable wire leaves the session and the other subagents readable.
      problems.push(`${path}: ${(error as Error).message}; that subagent was left out`);
    }
  }
  const result = linkKimiCodeSubagents(session, subagents);
  for (const message of problems) result.issues.push({ line: 0, kind: 'malformed', message });
  result.issueCount = (result.issueCount ?? 0) + problems.length;
  return result;
}
