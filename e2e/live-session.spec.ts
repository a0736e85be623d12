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
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { expect, fixture, test } from './fixtures/app.ts';

/** The Live tab as the tests drive it. */
class LivePage {
  constructor(readonly page: Page) {}

  async start(script?: string): Promise<void> {
    await this.page.getByTestId('live.new').click();
    const dialog = this.page.getByTestId('live.setup');
    await expect(dialog).toBeVisible();
    await this.page.getByTestId('live.setup.folder-input').setInputFiles(fixture('live-folder'));
    await expect(this.page.getByTestId('live.setup.folder-picked')).toContainText('a snapshot');
    if (script) {
      await this.page.getByTestId('live.setup.model.script').check();
      await this.page.getByTestId('live.setup.script-input').setInputFiles(script);
    } else {
      await this.page.getByTestId('live.setup.model.demo').check();
    }
    // pi keeps the newest 400 tokens verbatim: this short session has something to compact.
    await this.page.getByTestId('live.setup.strategy').selectOption('pi');
    await this.page.getByTestId('live.setup.options').locator('summary').click();
    await this.page.getByTestId('compact.option.keepRecentTokens').fill('400');
    await this.page.getByTestId('live.setup.start').click();
    await expect(this.page.getByTestId('live.panel')).toBeVisible({ timeout: 30_000 });
  }

  /** Types a request and sends it with Enter; waits until the session is ready again. */
  async send(text: string): Promise<void> {
    const input = this.page.getByTestId('live.input');
    await input.fill(text);
    await input.press('Enter');
    await this.idle();
  }

  async idle(): Promise<void> {
    await expect(this.page.getByTestId('live.phase')).toHaveText('ready', { timeout: 45_000 });
    await expect(this.page.getByTestId('live.send')).toBeVisible();
  }

  chat() {
    return this.page.getByTestId('live.chat');
  }
}

/** A conversation's stored entries as role, kind and text, read from the page's IndexedDB. */
function storedEntries(page: Page, conversationId: string): Promise<Array<{ role: string; kind: string; text: string }>> {
  return page.evaluate((id) => new Promise((resolve, reject) => {
    const open = indexedDB.open('foldlab');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const request = open.result.transaction('entries').objectStore('entries').index('conversationId').getAll(id);
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        open.result.close();
        type Row = { index: number; role: string; kind: string; blocks: Array<{ type: string; text?: string }> };
        const rows = (request.result as Row[]).sort((a, b) => a.index - b.index);
        resolve(rows.map((row) => ({ role: row.role, kind: row.kind, text: row.blocks.flatMap((block) => (block.type === 'text' ? [block.text ?? ''] : [])).join('\n') })));
      };
    };
  }), conversationId);
}

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

  // Turn 2: the mentioned file's contents are appended to the message as a system-reminder.
  await live.send('Explain @src/parser.py');
  const reminder = live.chat().getByTestId('live.reminder');
  await expect(reminder).toHaveCount(1);
  await reminder.locator('summary').click();
  await expect(reminder).toContainText('def parse_lines');
  await expect(live.chat()).toContainText('parse_number');

  // Turn 3: the first call overflows the window: one compaction, one retry.
  await live.send('Find every TODO');
  await expect(live.chat().getByTestId('live.compaction-entry')).toHaveCount(1);
  await expect(page.getByTestId('live.notes')).toContainText(/overflow/i);
  await expect(live.chat()).toContainText('src/utils/format.py:6');

  // The compaction is a run on the Runs view, and the Fold view folds from it (what came before
  // is in its summary), while the session is still running.
  await page.getByTestId('tab.runs').click();
  await expect(page.getByTestId('runs.row')).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByTestId('runs.row')).toContainText('pi');
  await expect(page.getByTestId('run.tokens')).toBeVisible();
  await page.getByTestId('tab.fold').click();
  await expect(page.getByTestId('fold.summary')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('fold.start')).toContainText('Starts at the compaction');
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

test('Stop aborts a reply while it streams: nothing of it is kept, and the next request works', async ({ app: _app, page }) => {
  const live = new LivePage(page);
  await live.start(fixture('slow-script.json'));
  const input = page.getByTestId('live.input');
  await input.fill('Describe the folder.');
  await input.press('Enter');
  // Part of the reply has streamed, most of it has not.
  await expect(page.getByTestId('live.streaming')).toContainText('streams slowly');
  await page.getByTestId('live.stop').click();
  await live.idle();
  await expect(page.getByTestId('live.streaming')).toHaveCount(0);
  await expect(live.chat()).not.toContainText('streams slowly');
  await expect(live.chat().getByTestId('live.entry.assistant')).toHaveCount(0);

  await live.send('And now?');
  await expect(live.chat()).toContainText('Second answer, complete.');
  await expect(live.chat().getByTestId('live.entry.assistant')).toHaveCount(1);
});
