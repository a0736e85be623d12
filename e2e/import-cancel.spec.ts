/**
 * Cancel on an import's progress bar, in each phase it goes through (reading the file, counting
 * its tokens, saving it): the import ends with "nothing was changed", the app's IndexedDB holds
 * exactly the rows it held before, the library is as before, and a later import works.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, sample, test, type AppPage } from './fixtures/app.ts';
import { storedRows } from './fixtures/stored-rows.ts';

const dir = mkdtempSync(join(tmpdir(), 'foldlab-e2e-cancel-'));
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));
const HEADER = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}';

/** A pi session of `count` short user messages, one after the other: many entries for few bytes. */
function chainFile(name: string, count: number): string {
  const lines = [HEADER];
  for (let i = 0; i < count; i++) {
    lines.push(`{"type":"message","id":"m${i}","parentId":${i === 0 ? 'null' : `"m${i - 1}"`},"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"step ${i} of the chain"}}`);
  }
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Waits until no job runs (the first visit's demo and its counts are stored). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => Object.keys((window as unknown as { __foldlab?: { state: () => { jobs: object } } }).__foldlab?.state().jobs ?? {}).length === 0, undefined, { timeout: 30_000 });
}

/** Starts importing `path`, waits until its bar shows `phase`, presses that bar's Cancel, and checks the rollback. */
async function cancelWhile(app: AppPage, page: Page, path: string, phase: 'reading' | 'counting' | 'saving'): Promise<void> {
  await app.waitForDemo();
  await settled(page);
  const rows = await storedRows(page);
  const library = await app.libraryItems().count();
  await page.getByTestId('import.input').setInputFiles(path);
  // Polled on every frame: a phase of a second or two is seen well before it ends.
  await page.waitForFunction((wanted) => {
    const api = (window as unknown as { __foldlab?: { state: () => { jobs: Record<string, { label: string; progress?: { phase: string } }> } } }).__foldlab;
    return Object.values(api?.state().jobs ?? {}).some((job) => job.label.startsWith('Importing') && job.progress?.phase === wanted);
  }, phase, { polling: 'raf', timeout: 45_000 });
  await page.getByTestId('job.progress').filter({ hasText: `${phase} ·` }).getByTestId('job.cancel').click();
  await expect(page.getByTestId('import.notice.error')).toHaveText('Cancelled: nothing was changed.', { timeout: 60_000 });
  await expect(page.getByTestId('job.progress')).toHaveCount(0);
  expect(await storedRows(page)).toEqual(rows);
  await expect(app.libraryItems()).toHaveCount(library);
  await expect(page.getByTestId('conversation.title')).toContainText('Demo');
}

test('Cancel while reading stops the import and stores nothing', async ({ app, page }) => {
  test.setTimeout(120_000);
  // ~40 MB: reading it takes a second or more even on a fast machine.
  await cancelWhile(app, page, chainFile('reading.jsonl', 300_000), 'reading');
});

test('Cancel while counting stops the import and stores nothing', async ({ app, page }) => {
  // A 12 MB run without whitespace (a pasted base64 blob): counting it takes seconds.
  const run = `{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"${'QUJD'.repeat(3_000_000)}"}}`;
  const path = join(dir, 'long-run.jsonl');
  writeFileSync(path, `${HEADER}\n${run}\n`);
  await cancelWhile(app, page, path, 'counting');
});

test('Cancel while saving stores nothing; a later import works', async ({ app, page }) => {
  test.setTimeout(120_000);
  // 20,000 entries in 2.7 MB: read and counted in a moment, written in one transaction that takes a while.
  await cancelWhile(app, page, chainFile('saving.jsonl', 20_000), 'saving');
  const library = await app.libraryItems().count();
  await app.importFile(sample('pi/v3-small.jsonl'));
  await expect(app.libraryItems()).toHaveCount(library + 1);
  expect(await app.entryCount()).toBe((await app.reportFor(sample('pi/v3-small.jsonl')) as unknown as { entries: number }).entries);
});
