/**
 * What is said of a subagent's own thread wherever it is listed (the library's item, `cli inspect`):
 * "subagent", its type when known, and its description when it says more than the title.
 */
import type { SubagentLink } from './types.ts';

/** `subagent (code-reviewer): Review the CSV export`; the description is left out when it is the title. */
export function subagentNote(link: SubagentLink, title?: string): string {
  const kind = link.agentType ? `subagent (${link.agentType})` : 'subagent';
  return link.description && link.description !== title ? `${kind}: ${link.description}` : kind;
}
