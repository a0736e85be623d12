/**
 * A live session in the production build: the scripted demo model over the folder fixture
 * (e2e/fixtures/live-folder, read through the directory `<input>` as a snapshot, since the
 * browser's folder picker cannot be driven headless). One session covers an `@file` mention, a
 * context overflow answered by a compaction (shown on the Runs and Fold views), the model asking
 * for a compaction itself, edit and resend as a new branch, a move back with its branch summary,
 * the export as pi JSONL v3 re-imported with the same entries, axe on the Live tab, and a
 * session continued after a reload over the folder picked again.
 */
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { expect, fixture, test } from './fixtures/app.ts';
import { LivePage, storedEntries } from './fixtures/live.ts';

test.describe.configure({ timeout: 180_000 });

test('a scripted live session over a folder: mention, compactions, branches, export and re-import', async ({ app, page }) => {
  const live = new LivePage(page);
  await live.start();
  await expect(page.getByTestId('conversation.title')).toHaveText('Live: live-folder');

  // Turn 1: tool calls (ls, read) shown as they happen, then the answer.
  await live.send('What is in this folder?');
  await expect(live.chat()).toContainText('tiny-parser');
  await expect(live.chat().getByTestId('live.tool-call').first()).toContainText('ls(');
  await expect(live.chat().getByTestId('live.tool-result').first()).toBeVisible();

  // Turn 2: the mention appends a system-reminder naming the file; the model reads it itself.
  await live.send('Explain @src/parser.py');
  const reminder = live.chat().getByTestId('live.reminder');
  await expect(reminder).toHaveCount(1);
  await reminder.locator('summary').click();
  await expect(reminder).toContainText('You MUST read this file with the Read tool');
  await expect(live.chat()).toContainText('parse_number');

  // Turn 3: the first call overflows the window: one compaction, one retry.
  await live.send('Find every TODO');
  await expect(live.chat().getByTestId('live.compaction-entry')).toHaveCount(1);
  await expect(page.getByTestId('live.notes')).toContainText(/overflow/i);
  await expect(live.chat()).toContainText('src/utils/format.py:6');

  // The compaction is a run on the Runs view, and the Fold view, while the session is still running,
  // reads the branch from its first entry and leaves the session's own compaction out (the history
  // it summarized is in the journal in full).
  await page.getByTestId('tab.runs').click();
  await expect(page.getByTestId('runs.row')).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByTestId('runs.row')).toContainText('pi');
  await expect(page.getByTestId('run.tokens')).toBeVisible();
  await page.getByTestId('tab.fold').click();
  await expect(page.getByTestId('fold.summary')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('fold.scope')).toContainText(/^From the first entry of the branch \(\d+ entries, \d+ calls\): the source agent's own compaction \(line \d+\) is left out/);
  await page.getByTestId('tab.live').click();
  await expect(live.chat().getByTestId('live.compaction-entry')).toHaveCount(1);

  // Turn 4: the model asks for a compaction itself (summarize_context); the kept tail is all
  // that is left since the last one, so the loop says there is nothing to compact.
  await live.send('Summarize what we did');
  await expect(live.chat().getByTestId('live.tool-call').filter({ hasText: 'summarize_context(' })).toHaveCount(1);
  await expect(page.getByTestId('live.notes')).toContainText('summarize_context');
  await expect(live.chat()).toContainText('So far: we listed the folder');

  // P7: edit the first message and resend it as a new branch.
  await live.chat().getByTestId('live.edit').first().click();
  await page.getByTestId('live.edit.input').fill('What is in the notes folder?');
  await page.getByTestId('live.edit.send').click();
  await live.idle();
  await expect(live.chat()).toContainText('todo.txt, with three items');
  await expect(live.chat()).not.toContainText('tiny-parser');

  // Back to the first branch: the branch left behind is summarized where the session continues.
  const branch = page.getByTestId('live.branch');
  const options = await branch.locator('option').allTextContents();
  expect(options).toHaveLength(2);
  const first = await branch.locator('option').nth(0).getAttribute('value');
  const current = await branch.inputValue();
  const other = first === current ? await branch.locator('option').nth(1).getAttribute('value') : first;
  await branch.selectOption(other!);
  await live.idle();
  await expect(page.getByTestId('live.branch-summary')).toBeVisible();
  await expect(live.chat().getByTestId('live.branch-summary-entry')).toHaveCount(1);
  await expect(live.chat()).toContainText('So far: we listed the folder');

  // The Live tab passes axe with all of it on screen.
  const axe = await new AxeBuilder({ page }).include('[data-testid="live.panel"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // The loop's compactions are runs like any other.
  await page.getByTestId('tab.runs').click();
  await expect(page.getByTestId('runs.row')).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByTestId('run.tokens')).toBeVisible();

  // The Fold view folds the live journal, compaction markers included.
  await page.getByTestId('tab.fold').click();
  await expect(page.getByTestId('fold.summary')).toBeVisible({ timeout: 30_000 });

  // Export as pi JSONL v3, import it back: the same entries (src/ui/live/live-export.test.ts
  // compares tool calls, results and records field by field; here role, kind and text).
  const stored = await app.entryCount();
  expect(stored).toBeGreaterThan(20);
  const liveId = await page.locator('[data-testid="library.item"].selected').getAttribute('data-conversation-id');
  await page.getByTestId('tab.live').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('live.export').click()]);
  const path = test.info().outputPath(download.suggestedFilename());
  await download.saveAs(path);
  expect(readFileSync(path, 'utf8').split('\n')[0]).toContain('"version":3');
  await app.importFile(path);
  expect(await app.entryCount()).toBe(stored);
  expect(await page.getByTestId('conversation.meta').textContent()).toContain('pi session');
  const importedId = await page.evaluate(() => window.__foldlab?.imports.at(-1)?.conversation.id);
  const liveEntries = await storedEntries(page, liveId!);
  const imported = await storedEntries(page, importedId!);
  expect(imported).toEqual(liveEntries);
  expect(imported.some((entry) => entry.text.includes('This is **tiny-parser**'))).toBe(true);
  expect(imported.filter((entry) => entry.kind === 'compaction').map((entry) => entry.text.length > 0)).toEqual([true, true, true]);
});

test('after a reload the live session asks for its folder again and continues its journal', async ({ app: _app, page }) => {
  const live = new LivePage(page);
  await live.start();
  await live.send('What is in this folder?');
  await expect(live.chat()).toContainText('tiny-parser');
  const before = await live.chat().getByTestId('live.entry.user').count();

  await page.reload();
  await page.getByTestId('tab.live').click();
  await expect(page.getByTestId('live.reconnect')).toContainText('snapshot');
  await page.getByTestId('live.reconnect.input').setInputFiles(fixture('live-folder'));
  await expect(page.getByTestId('live.panel')).toBeVisible({ timeout: 45_000 });
  await expect(live.chat().getByTestId('live.entry.user')).toHaveCount(before);
  await expect(live.chat()).toContainText('tiny-parser');
});

test('Stop aborts a reply while it streams: what was shown stays, not complete and not kept; the next request works', async ({ app: _app, page }) => {
  const live = new LivePage(page);
  await live.start(fixture('slow-script.json'));
  const input = page.getByTestId('live.input');
  await input.fill('Describe the folder.');
  await input.press('Enter');
  // Part of the reply has streamed, most of it has not.
  await expect(page.getByTestId('live.streaming')).toContainText('streams slowly');
  // What is on screen when Stop is pressed is what stays (pieces still on their way are dropped).
  const shown = await page.evaluate(() => {
    const text = document.querySelector('[data-testid="live.streaming"]')?.textContent ?? '';
    (document.querySelector('[data-testid="live.stop"]') as HTMLButtonElement).click();
    return text;
  });
  await live.idle();
  await expect(page.getByTestId('live.streaming')).toHaveCount(0);
  await expect(page.getByTestId('live.unfinished')).toHaveText(`${shown} [not complete]`);
  await expect(page.getByTestId('live.stopped')).toContainText('not complete');
  await expect(live.chat().getByTestId('live.entry.assistant')).toHaveCount(0);

  await live.send('And now?');
  await expect(page.getByTestId('live.unfinished')).toHaveCount(0);
  await expect(live.chat()).not.toContainText('streams slowly');
  await expect(live.chat()).toContainText('Second answer, complete.');
  await expect(live.chat().getByTestId('live.entry.assistant')).toHaveCount(1);

  // Closing the session lets go of it in this tab; it can be opened again over its folder.
  await page.getByTestId('live.close').click();
  await expect(page.getByTestId('live.reconnect')).toBeVisible();
});

test('the open Fold view folds the live session again as it grows, keeping the query typed', async ({ app: _app, page }) => {
  const live = new LivePage(page);
  await live.start(fixture('growth-script.json'));
  await live.send('Hello');
  const input = page.getByTestId('live.input');
  await input.fill('Go through the folder');
  await input.press('Enter');
  await expect(page.getByTestId('live.phase')).not.toHaveText('ready');

  // The Fold tab is opened while the turn runs and stays open.
  await page.getByTestId('tab.fold').click();
  const summary = page.getByTestId('fold.summary');
  await expect(summary).toBeVisible({ timeout: 30_000 });
  const iterations = async () => Number(/of ([\d,]+) iterations/.exec((await summary.textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? 0);
  const first = await iterations();
  // The turn (about 13 s) is still running: four model calls and three tool results to come.
  expect(first).toBeLessThan(5);
  await page.getByTestId('fold.query').fill('parser');
  // Folded again as they arrive, without leaving the tab.
  await expect.poll(iterations, { timeout: 45_000 }).toBe(5);
  await expect(page.getByTestId('fold.query')).toHaveValue('parser');
  await expect(page.getByTestId('fold.hits')).toBeVisible();
  await page.getByTestId('tab.live').click();
  await live.idle();
  await expect(live.chat()).toContainText('all read one file at a time');
});
