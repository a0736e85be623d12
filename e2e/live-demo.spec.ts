/**
 * The bundled live demo as a new user meets it on the deployed site: the demo folder shipped with
 * the site (no folder of their own), the scripted demo model, the strategy at its defaults. It
 * runs to its end (the third turn's overflow is recovered), and the chat follows each new reply
 * unless the user has scrolled up to read.
 */
import { expect, test } from './fixtures/app.ts';
import { LivePage } from './fixtures/live.ts';

test.describe.configure({ timeout: 180_000 });

/** How far the chat is from its bottom, px. */
const fromBottom = (page: import('@playwright/test').Page) =>
  page.getByTestId('live.chat').evaluate((chat) => chat.scrollHeight - chat.scrollTop - chat.clientHeight);

test('the demo over the bundled demo folder runs to its end at the default strategy, the chat following each reply', async ({ app, page }) => {
  void app;
  const live = new LivePage(page);
  await live.openSetup();
  await page.getByTestId('live.setup.demo-folder').click();
  await expect(page.getByTestId('live.setup.folder-picked')).toContainText('tiny-parser');
  await expect(page.getByTestId('live.setup.strategy')).toHaveValue('pi');
  await live.configure();
  await live.begin();
  await expect(page.getByTestId('conversation.title')).toHaveText('Live: tiny-parser');

  const turns: Array<[string, string]> = [
    ['What is in this folder?', 'tiny-parser'],
    ['Explain @src/parser.py', 'parse_number'],
    ['Find every TODO', 'src/utils/format.py:6'],
    ['Summarize what we did', 'So far: we listed the folder'],
  ];
  for (const [text, answer] of turns) {
    await live.send(text);
    await expect(live.chat()).toContainText(answer);
    await expect.poll(() => fromBottom(page)).toBeLessThanOrEqual(32);
  }
  await expect(live.chat().getByTestId('live.compaction-entry')).toHaveCount(1);
  await expect(page.getByTestId('live.notes')).toContainText('summarized as pi does');
  await expect(page.getByTestId('live.notes')).not.toContainText('recovery failed');

  // Scrolled up to read: the next reply arrives below and the chat stays where the user is.
  await live.chat().evaluate((chat) => {
    chat.scrollTop = 0;
    chat.dispatchEvent(new Event('scroll'));
  });
  await live.send('What is in the notes folder?');
  await expect(live.chat()).toContainText('todo.txt, with three items');
  expect(await live.chat().evaluate((chat) => chat.scrollTop)).toBe(0);
  // Back at the bottom, it follows again.
  await live.chat().evaluate((chat) => {
    chat.scrollTop = chat.scrollHeight;
    chat.dispatchEvent(new Event('scroll'));
  });
  await live.send('What is in this folder?');
  await expect.poll(() => fromBottom(page)).toBeLessThanOrEqual(32);
});
