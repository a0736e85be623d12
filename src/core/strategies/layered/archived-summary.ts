/**
 * L6 (seed 002 §A5): the fixed "Archived Session Summary" template the archive summary follows,
 * and the SYSTEM entries that carry summaries into the assembled context. Summaries archive old
 * history only; once written they are appended and never summarized again.
 */
import type { Entry } from '../../journal/entry.ts';

/** The template exactly as the seed fixes it (headings, emoji, bracketed placeholders). */
export const ARCHIVED_SUMMARY_TEMPLATE = [
  '## 📌 Archived Session Summary',
  '*(Contains context from [Start Time] to [Cutoff Time])*',
  '',
  '### 🎯 Objectives & Status',
  '* **Original Goal**: [用户最初想做什么]',
  '',
  '### 🏗️ Technical Context (Static)',
  '* **Stack**: [语言, 框架, 版本]',
  '* **Environment**: [OS, Shell,关键环境变量]',
  '',
  '### ✅ Completed Milestones (The "Done" Pile)',
  '* [✓] [已完成的任务1] - [简述结果]',
  '* [✓] [已完成的任务2] - [简述结果]',
  '',
  '### 🧠 Key Insights & Decisions (Persistent Memory)',
  '* **Decisions**: [关键技术选型或放弃的方案]',
  '* **Learnings**: [特殊配置、API 格式或坑]',
  '* **User Preferences**: [用户强调的习惯]',
  '',
  '### 📂 File System State (Snapshot)',
  '*(Modified files in this archive segment)*',
  '* `src/utils/auth.ts`: Implemented login logic.',
  '* `package.json`: Added `zod` dependency.',
].join('\n');

export const ARCHIVE_HEADING = '## 📌 Archived Session Summary';

/** Prompt file (prompts/<id>.md) that asks the summarizer to fill the template. */
export const ARCHIVE_PROMPT_ID = 'layered-archived-summary';

/** Shown when a summary is not used because it could not be written (seed 002 §E2). */
export const TIMEOUT_MESSAGE = 'Summary generation timed out, keeping recent history only.';

/** An entry's time as ISO 8601 UTC, or 'unknown' when the source recorded none. */
export function isoTime(entry: Entry | undefined): string {
  return entry?.timestamp !== undefined && Number.isFinite(entry.timestamp) ? new Date(entry.timestamp).toISOString() : 'unknown';
}

/**
 * The summary as it enters L3: a model that skipped the heading still yields a summary under
 * the fixed heading and time-range line, so every archive reads the same way.
 */
export function frameArchivedSummary(text: string, startTime: string, cutoffTime: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith(ARCHIVE_HEADING)) return trimmed;
  return `${ARCHIVE_HEADING}\n*(Contains context from ${startTime} to ${cutoffTime})*\n\n${trimmed}`;
}

/** A NEW system entry holding an archived summary (never a journal entry). */
export function archiveEntry(id: string, text: string, at: Entry | undefined): Entry {
  return {
    id,
    index: at?.index ?? 0,
    parentId: null,
    role: 'system',
    kind: 'message',
    blocks: [{ type: 'text', text }],
    ...(at?.timestamp !== undefined ? { timestamp: at.timestamp } : {}),
    sourceType: 'layered.archived-summary',
    line: at?.line ?? 0,
  };
}
