/**
 * The user's hook module in the live session (P8): the Compact tab's module, taken when the session
 * starts, writes the branch summary of a move (before-fork), each call in a sandbox worker started
 * from the live session's own worker.
 */
import { expect, sample, test } from './fixtures/app.ts';
import { LivePage } from './fixtures/live.ts';

test.describe.configure({ timeout: 120_000 });

test('the hook module of the Compact tab writes the live session\'s branch summary (before-fork, in its sandbox)', async ({ app, page }) => {
  await app.importFile(sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'));
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.hooks.summary').click();
  await page.getByTestId('compact.hooks').fill('export function beforeFork(e) { return { summary: `Written by the hook: ${e.entriesLeftOut} entries left behind` }; }');
  const live = new LivePage(page);
  await live.openSetup();
  await page.getByTestId('live.setup.demo-folder').click();
  await live.configure();
  await live.begin();
  await live.send('What is in this folder?');
  await live.chat().getByTestId('live.edit').first().click();
  await page.getByTestId('live.edit.input').fill('What is in the notes folder?');
  await page.getByTestId('live.edit.send').click();
  await live.idle();
  await expect(page.getByTestId('live.branch-summary')).toContainText(/Written by the hook: \d+ entries left behind/);
});
