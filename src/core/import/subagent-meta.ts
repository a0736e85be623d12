/**
 * Claude Code 2.1 writes beside each subagent transcript `agent-<id>.jsonl` a small
 * `agent-<id>.meta.json` (`{agentType, description, worktreePath?}`). It is metadata, never a
 * transcript: the folder readers (the page's import, `eval`) pair it with its transcript and
 * merge it into the conversation's `meta.subagent`.
 */
import { isRecord, str } from './builder.ts';
import { ImportFormatError, type ImportResult, type SubagentLink } from './types.ts';

const META_SUFFIX = '.meta.json';

/** Whether a file name is a subagent's metadata (`agent-<id>.meta.json`). */
export function isSubagentMetaName(name: string): boolean {
  return /^agent-.+\.meta\.json$/i.test(name);
}

/** The metadata file name of a subagent transcript (`agent-x.jsonl` -> `agent-x.meta.json`), or undefined for other names. */
export function subagentMetaNameOf(transcriptName: string): string | undefined {
  const match = /^(agent-.+)\.jsonl$/i.exec(transcriptName);
  return match ? `${match[1]}${META_SUFFIX}` : undefined;
}

/** The transcript a metadata file describes (`agent-x.meta.json` -> `agent-x.jsonl`). */
export function subagentTranscriptNameOf(metaName: string): string {
  return `${metaName.slice(0, -META_SUFFIX.length)}.jsonl`;
}

/** Reads a metadata file's text; a file that is not a JSON object is refused with its name. */
export function parseSubagentMeta(text: string, fileName: string): Pick<SubagentLink, 'agentType' | 'description'> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ImportFormatError(`"${fileName}" is not valid JSON (${(error as Error).message}); expected Claude Code's subagent metadata {"agentType", "description"}.`);
  }
  if (!isRecord(value)) throw new ImportFormatError(`"${fileName}" is not a JSON object; expected Claude Code's subagent metadata {"agentType", "description"}.`);
  const agentType = str(value.agentType);
  const description = str(value.description);
  return { ...(agentType ? { agentType } : {}), ...(description ? { description } : {}) };
}

/** The import with the metadata merged into its subagent link; the description becomes the title when the file had none. */
export function withSubagentMeta(result: ImportResult, meta: Pick<SubagentLink, 'agentType' | 'description' | 'parentSessionId' | 'agentId'>): ImportResult {
  const subagent: SubagentLink = { ...result.meta.subagent, ...meta };
  const title = result.meta.title ?? meta.description;
  return { ...result, meta: { ...result.meta, ...(title !== undefined ? { title } : {}), subagent } };
}
