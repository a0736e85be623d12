/**
 * L11: while the live session compacts its history, the input waits with the compaction's progress
 * in view: the request box is read-only and says so, Send is disabled, Stop is offered, and the
 * progress names the phase. A script whose summaries take 4 s (summaryDelayMs) makes the
 * compaction long enough to look at; once it is done the input is back.
 */
import { expect, fixture, test } from './fixtures/app.ts';
import { LivePage } from './fixtures/live.ts';

test.describe.configure({ timeout: 120_000 });

test('a compaction blocks the live input with visible progress until it is done', async ({ app, page }) => {
  void app;
  const live = new LivePage(page);
  await live.openSetup();
  await live.snapshot();
  await live.configure({ script: fixture('slow-summary-script.json'), keepRecentTokens: 10 });
  await live.begin();
  await live.send('Read the README');
  await expect(live.chat()).toContainText('The README describes tiny-parser');

  const input = page.getByTestId('live.input');
  await input.fill('Tidy up the history');
  await input.press('Enter');
  const progress = page.getByTestId('live.progress');
  await expect(progress).toContainText('Compacting the history (summarizing');
  await expect(progress.getByRole('progressbar', { name: 'Compaction progress' })).toBeVisible();
  await expect(page.getByTestId('live.phase')).toHaveText('compacting');
  await expect(input).toHaveAttribute('readonly', '');
  await expect(page.locator('label[for="live-input"]')).toHaveText('Compacting the history: input waits until it is done');
  await expect(page.getByTestId('live.send')).toBeDisabled();
  await expect(page.getByTestId('live.stop')).toBeEnabled();
  // Typing while it compacts changes nothing.
  await input.press('x');
  await expect(input).toHaveValue('');

  await live.idle();
  await expect(progress).toHaveCount(0);
  await expect(input).not.toHaveAttribute('readonly');
  await expect(live.chat()).toContainText('Tidied: the history is summarized.');
  await expect(live.chat().getByTestId('live.compaction-entry')).toHaveCount(1);
  await live.send('And after?');
  await expect(live.chat()).toContainText('Still here after the compaction.');
});
