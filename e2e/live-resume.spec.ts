/**
 * A live session continued after a reload: the scripted model goes on with the step after the
 * last one it played (a reply stopped just before the reload included), and the compaction the
 * loop made is stored as a run with its plan, so the Runs tab shows which entries were kept and
 * which summarized.
 */
import { expect, fixture, test } from './fixtures/app.ts';

test.describe.configure({ timeout: 180_000 });

test('after a reload the scripted model continues its script, and the Runs tab shows the live compaction\'s plan', async ({ app: _app, page }) => {
  await page.getByTestId('live.new').click();
  await page.getByTestId('live.setup.folder-input').setInputFiles(fixture('live-folder'));
  await expect(page.getByTestId('live.setup.folder-picked')).toContainText('a snapshot');
  await page.getByTestId('live.setup.model.script').check();
  await page.getByTestId('live.setup.script-input').setInputFiles(fixture('resume-script.json'));
  await page.getByTestId('live.setup.strategy').selectOption('pi');
  await page.getByTestId('live.setup.options').locator('summary').click();
  await page.getByTestId('compact.option.keepRecentTokens').fill('20');
  await page.getByTestId('live.setup.start').click();
  await expect(page.getByTestId('live.panel')).toBeVisible({ timeout: 30_000 });
  const chat = page.getByTestId('live.chat');
  const input = page.getByTestId('live.input');
  const idle = () => expect(page.getByTestId('live.phase')).toHaveText('ready', { timeout: 45_000 });
  const send = async (text: string) => {
    await input.fill(text);
    await input.press('Enter');
    await idle();
  };

  await send('What is this project?');
  await expect(chat).toContainText('First answer');
  // The first call of turn 2 overflows: one compaction, one retry.
  await send('Tell me more');
  await expect(chat).toContainText('Second answer, after compacting.');
  await expect(chat.getByTestId('live.compaction-entry')).toHaveCount(1);
  // Turn 3 is stopped while it streams: the journal keeps no reply of it.
  await input.fill('Go on slowly');
  await input.press('Enter');
  await expect(page.getByTestId('live.streaming')).toContainText('streams slowly');
  await page.getByTestId('live.stop').click();
  await idle();

  await page.reload();
  await page.getByTestId('tab.live').click();
  await page.getByTestId('live.reconnect.input').setInputFiles(fixture('live-folder'));
  await expect(page.getByTestId('live.panel')).toBeVisible({ timeout: 45_000 });
  await send('And after the reload?');
  await expect(chat).toContainText('Third answer, after the reload.');
  await expect(chat.getByTestId('live.entry.assistant').filter({ hasText: 'Reading the README.' })).toHaveCount(1);

  // The live compaction is a run with its plan: a fate per entry of the branch.
  await page.getByTestId('tab.runs').click();
  await expect(page.getByTestId('runs.row')).toHaveCount(1, { timeout: 15_000 });
  const strip = page.getByTestId('run.strip');
  await expect(strip).toBeVisible();
  await expect(strip).toHaveAttribute('aria-label', /summarized/);
  await expect(strip).toHaveAttribute('aria-label', /kept verbatim/);
});
