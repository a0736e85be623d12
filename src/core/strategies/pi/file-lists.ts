/**
 * pi's file lists (P5): files read and files modified by the summarized tool calls, added to the
 * previous compaction's lists so they accumulate across compactions, and appended to the summary
 * as `<read-files>` / `<modified-files>` sections.
 */
import type { Entry } from '../../journal/entry.ts';
import { entryActions, fileLists } from '../../compaction/tool-actions.ts';

export interface FileLists {
  /** Files only read (a file also modified is listed as modified only), sorted. */
  readFiles: string[];
  modifiedFiles: string[];
}

/** The previous lists plus the files the newly summarized entries touched. */
export function cumulativeFileLists(previous: FileLists, summarized: readonly Entry[]): FileLists {
  const now = fileLists(entryActions(summarized));
  const modified = new Set([...previous.modifiedFiles, ...now.modified]);
  const read = new Set([...previous.readFiles, ...now.read].filter((path) => !modified.has(path)));
  return { readFiles: [...read].sort(), modifiedFiles: [...modified].sort() };
}

/** The sections pi appends to a summary: empty when no file was touched, else a blank line and the tags. */
export function formatFileSections(lists: FileLists): string {
  const sections: string[] = [];
  if (lists.readFiles.length > 0) sections.push(`<read-files>\n${lists.readFiles.join('\n')}\n</read-files>`);
  if (lists.modifiedFiles.length > 0) sections.push(`<modified-files>\n${lists.modifiedFiles.join('\n')}\n</modified-files>`);
  return sections.length === 0 ? '' : `\n\n${sections.join('\n\n')}`;
}

/** A summary without the file sections at its end (they are re-appended from the cumulative lists). */
export function stripFileSections(summary: string): string {
  let text = summary;
  for (const tag of ['modified-files', 'read-files']) {
    if (!text.endsWith(`\n</${tag}>`)) continue;
    const open = text.lastIndexOf(`\n\n<${tag}>\n`);
    if (open >= 0) text = text.slice(0, open);
  }
  return text;
}
