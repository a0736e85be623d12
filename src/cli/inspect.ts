/** `inspect <file>`: the import report and token totals of a transcript. */
import type { FormatId, SubagentLink } from '../core/import/types.ts';
import { subagentNote } from '../core/import/subagent-note.ts';
import { inspect, type InspectReport, type RecordedUsageTotals } from '../core/inspect.ts';
import { sessionFactsText } from '../core/import/session-facts.ts';
import { getCounter, type CounterId } from '../core/tokens/counters.ts';
import { countEntries } from '../core/tokens/entry-tokens.ts';
import { importFile } from './load.ts';

export async function runInspect(file: string, counterId: CounterId, format?: FormatId): Promise<InspectReport> {
  const result = await importFile(file, format);
  const counter = await getCounter(counterId);
  const counts = countEntries(result.entries, counter);
  let total = 0;
  for (const value of counts.totals) total += value;
  return inspect(result, { counter: counterId, label: counter.label, total, byRole: counts.byRole, byKind: counts.byKind });
}

/** The recorded usage line: how many responses recorded one, and their sums. */
export function formatRecordedUsage(usage: RecordedUsageTotals): string {
  if (usage.responses === 0) return 'none recorded';
  const n = (value: number) => value.toLocaleString('en-US');
  return `${n(usage.responses)} response${usage.responses === 1 ? '' : 's'} recorded: ${n(usage.input)} in (${n(usage.cacheRead)} cache read, ${n(usage.cacheWrite)} cache write), ${n(usage.output)} out`;
}

/** A subagent's line: what the library says of it, then the session and call it hangs under. */
function subagentLine(link: SubagentLink, title: string | undefined): string {
  const under = [link.parentSessionId ? `session ${link.parentSessionId}` : undefined, link.parentToolUseId ? `call ${link.parentToolUseId}` : undefined].filter((part) => part !== undefined);
  return `${subagentNote(link, title)}${under.length > 0 ? ` under ${under.join(', ')}` : ''}`;
}

export function formatInspect(report: InspectReport): string {
  const session = sessionFactsText(report.session);
  return [
    `format        ${report.format}${report.title ? `  "${report.title}"` : ''}`,
    ...(session ? [`session       ${session}`] : []),
    ...(report.subagent ? [`thread        ${subagentLine(report.subagent, report.title)}`] : []),
    `entries       ${report.entries} (${report.kinds.message} messages, ${report.kinds.compaction} compaction markers, ${report.kinds.event} harness events)`,
    `roles         system ${report.roles.system}, user ${report.roles.user}, assistant ${report.roles.assistant}, tool ${report.roles.tool}`,
    `tool calls    ${report.toolCalls} (${report.orphanToolCalls} without result); results ${report.toolResults} (${report.orphanToolResults} without call)`,
    `branches      ${report.branches}`,
    `tokens        ${report.tokens.total.toLocaleString('en-US')} (${report.tokens.label})`,
    `usage         ${formatRecordedUsage(report.usage)}`,
    `lines         ${report.lines} (${report.blankLines} blank, ${report.ignoredLines} metadata)`,
    `problems      ${report.skippedLines} line${report.skippedLines === 1 ? '' : 's'} skipped${report.skippedLines > 20 ? ' (the first 20:)' : ''}`,
    ...report.errors.slice(0, 20).map((error) => `  line ${error.line}: ${error.message}`),
  ].join('\n');
}
