/**
 * Section 13's progress and Cancel checks in the page: what the import's progress bar showed in
 * each phase (how many distinct values, the longest time it stood still), and a Cancel pressed on
 * the real button in each phase of a large import, with the app's IndexedDB counted table by table
 * before and after, so a rolled-back import is seen to leave nothing behind.
 */
import type { Browser, Page } from 'playwright-core';
import { storedRows } from '../e2e/fixtures/stored-rows.ts';
import { duration, fmt, printPairs, printTable } from './report.ts';

/** The import's phases as the worker reports them (src/worker/engine/protocol.ts JobPhase), in order. */
export const IMPORT_PHASES = ['reading', 'counting', 'saving'] as const;
/** Time allowed for a phase to be reached, and for a cancelled import to end. Default 900,000 (15 min). Unit: ms. */
export const PHASE_TIMEOUT_MS = 900_000;

/** One change of what the import's progress bar shows: [performance.now(), phase, text shown]. */
export type ShownProgress = [number, string, string];

/** Rows the second count has beyond the first, per store ("entries +120"); empty when none. */
export function rowsAdded(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys(after).filter((name) => (after[name] ?? 0) > (before[name] ?? 0)).map((name) => `${name} +${(after[name] ?? 0) - (before[name] ?? 0)}`);
}

/** Per phase: when the bar first and last showed it, the distinct values, and the longest time without a change. */
export function reportProgress(shown: readonly ShownProgress[], endedAt: number): void {
  const rows = IMPORT_PHASES.map((phase) => {
    const changes = shown.map((change, i) => ({ change, next: shown[i + 1]?.[0] ?? endedAt })).filter(({ change }) => change[1] === phase);
    if (changes.length === 0) return [phase, 0, '-', '-', '(not shown)'];
    const stillest = Math.max(...changes.map(({ change, next }) => next - change[0]));
    const span = (changes.at(-1)!.next - changes[0]!.change[0]);
    return [phase, new Set(changes.map(({ change }) => change[2])).size, duration(span), `${fmt(stillest)} ms`, `${changes[0]!.change[2]} -> ${changes.at(-1)!.change[2]}`];
  });
  printTable(['phase', 'distinct values shown', 'shown for', 'longest without a change', 'first -> last'], rows);
}

interface CancelRow {
  phase: string;
  reachedMs: number;
  cancelMs: number;
  notice: string;
  added: string[];
  library: [number, number];
}

/** The import job's phase in the page's store, or undefined when no import runs. */
function importPhase(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const api = (window as unknown as { __foldlab?: { state: () => { jobs: Record<string, { label: string; progress?: { phase: string } }> } } }).__foldlab;
    const job = Object.values(api?.state().jobs ?? {}).find((candidate) => candidate.label.startsWith('Importing'));
    return job ? (job.progress?.phase ?? 'starting') : undefined;
  });
}

/**
 * For each phase: starts an import of `file`, waits until its bar shows that phase, presses the
 * bar's Cancel button, waits for the import to end, and counts the IndexedDB rows again.
 */
export async function cancelEachPhase(browser: Browser, url: string, file: string, setUp: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const rows: CancelRow[] = [];
  try {
    const page = await context.newPage();
    await setUp(page);
    await page.goto(url);
    await page.getByTestId('totals.total').waitFor({ timeout: 120_000 });
    for (const phase of IMPORT_PHASES) {
      // No job of the first visit (the demo, its counts) may still be writing when the rows are counted.
      await page.waitForFunction(() => Object.keys((window as unknown as { __foldlab?: { state: () => { jobs: object } } }).__foldlab?.state().jobs ?? {}).length === 0, undefined, { timeout: 120_000, polling: 100 });
      const before = await storedRows(page);
      const libraryBefore = await page.getByTestId('library.item').count();
      const started = performance.now();
      await page.setInputFiles('[data-testid="import.input"]', file);
      await page.waitForFunction((wanted) => {
        const api = (window as unknown as { __foldlab?: { state: () => { jobs: Record<string, { label: string; progress?: { phase: string } }> } } }).__foldlab;
        return Object.values(api?.state().jobs ?? {}).some((job) => job.label.startsWith('Importing') && job.progress?.phase === wanted);
      }, phase, { timeout: PHASE_TIMEOUT_MS, polling: 20 });
      const reachedMs = performance.now() - started;
      const pressed = performance.now();
      await page.getByTestId('job.progress').filter({ hasText: `${phase} ·` }).getByTestId('job.cancel').click({ timeout: 10_000 });
      while ((await importPhase(page)) !== undefined) {
        if (performance.now() - pressed > PHASE_TIMEOUT_MS) throw new Error(`The import cancelled while ${phase} did not end within ${duration(PHASE_TIMEOUT_MS)}.`);
        await page.waitForTimeout(20);
      }
      const cancelMs = performance.now() - pressed;
      const notice = (await page.getByTestId('import.notice.error').textContent({ timeout: 5_000 }).catch(() => null)) ?? '(no error notice: the import finished)';
      const after = await storedRows(page);
      rows.push({ phase, reachedMs, cancelMs, notice, added: rowsAdded(before, after), library: [libraryBefore, await page.getByTestId('library.item').count()] });
    }
  } finally {
    await context.close();
  }
  printTable(
    ['phase', 'reached after', 'Cancel pressed -> import ended', 'notice', 'rows left (IndexedDB)', 'library items before / after'],
    rows.map((row) => [row.phase, duration(row.reachedMs), `${fmt(row.cancelMs)} ms`, row.notice.slice(0, 60), row.added.length === 0 ? '0' : row.added.join(', '), `${row.library[0]} / ${row.library[1]}`]),
  );
  const failed = rows.filter((row) => row.added.length > 0 || row.library[0] !== row.library[1] || !row.notice.startsWith('Cancelled'));
  printPairs([['rolled back in every phase', failed.length === 0 ? 'yes' : `NO: ${failed.map((row) => row.phase).join(', ')}`]]);
}
