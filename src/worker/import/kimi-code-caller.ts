/**
 * A Kimi Code subagent's wire imported in the page with the other wires of its session folder beside
 * it: those are read here (with the same line importer) so the subagent is linked to the `Agent` call
 * that started it by the same core function the command line uses (linkKimiCodeSubagent).
 */
import { linkKimiCodeSubagent } from '../../core/import/kimi-code-folder.ts';
import { ImportSession } from '../../core/import/run.ts';
import type { ImportResult } from '../../core/import/types.ts';

/** The subagent linked to its parent's `Agent` call, found among `parents` (the folder's other wires); unchanged when none names it. */
export async function withKimiCodeCaller(subagent: ImportResult, parents: readonly Blob[]): Promise<ImportResult> {
  if (subagent.meta.subagent?.agentId === undefined || parents.length === 0) return subagent;
  const imported: ImportResult[] = [];
  for (const blob of parents) {
    const session = new ImportSession({ fileName: 'wire.jsonl', size: blob.size, format: 'kimi-code' });
    session.push(new Uint8Array(await blob.arrayBuffer()));
    try {
      imported.push(session.finish());
    } catch {
      // A parent wire that cannot be read is reported by its own import; the link stays with the session.
    }
  }
  return linkKimiCodeSubagent(subagent, imported);
}
