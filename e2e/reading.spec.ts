/**
 * Reading a session as a new user finds it: the library titles it by the first real request with
 * the file name beside it; the IDE's text inside the prompt is tagged injected apart from the
 * words; a tool's input shows its fields on their own lines, not as escaped JSON.
 */
import { resolve } from 'node:path';
import { expect, ROOT, test } from './fixtures/app.ts';

const IDE_SESSION = resolve(ROOT, 'src/core/summarize/__fixtures__/ide-context.jsonl');
const WORDS = 'Why is the discount applied before shipping here? Make it apply after shipping.';

test('an IDE prompt: titled by its words, the IDE text tagged injected, the tool input readable', async ({ app, page }) => {
  // The shell's "Loading…" note is gone once the app has mounted.
  await expect(page.getByTestId('shell.loading')).toHaveCount(0);
  await app.importFile(IDE_SESSION);
  await expect(page.getByTestId('conversation.title')).toHaveText(WORDS);
  const item = app.libraryItems().filter({ hasText: WORDS });
  await expect(item.getByTestId('library.item.file')).toContainText('ide-context.jsonl');

  const prompt = page.getByTestId('transcript.entry').first();
  const injected = prompt.getByTestId('transcript.injected-part');
  await expect(injected).toHaveCount(2);
  await expect(injected.nth(0)).toHaveAttribute('data-harness', 'ide_opened_file');
  await expect(injected.nth(0)).toContainText('injected · ide_opened_file');
  await expect(injected.nth(1)).toHaveAttribute('data-harness', 'ide_selection');
  // The words are outside every injected part.
  await expect(prompt.locator('.text .markdown').filter({ hasText: WORDS })).toHaveCount(1);
  await expect(injected.filter({ hasText: WORDS })).toHaveCount(0);

  const input = page.getByRole('group', { name: 'Input of Read' });
  await expect(input).toHaveText('file_path: /home/dev/shop-api/src/cart/totals.ts');
});

test('opened thinking is a box of its own, apart from the reply after it', async ({ app, page }) => {
  await app.waitForDemo();
  const thinking = page.locator('[data-testid="transcript.entry"] details.thinking').first();
  await expect(thinking).toBeVisible({ timeout: 30_000 });
  await thinking.locator('summary').click();
  await expect(thinking).toHaveAttribute('open', '');
  const style = await thinking.evaluate((box) => {
    const css = getComputedStyle(box);
    return { border: css.borderLeftWidth, background: css.backgroundColor, marginBottom: parseFloat(css.marginBottom) };
  });
  expect(style.border).toBe('3px');
  expect(style.background).not.toBe('rgba(0, 0, 0, 0)');
  expect(style.marginBottom).toBeGreaterThanOrEqual(8);
  // What follows the thinking (the reply's text or a tool call) starts below the box, with space between.
  const next = thinking.locator('xpath=following-sibling::*[1]');
  if ((await next.count()) > 0) {
    const box = (await thinking.boundingBox())!;
    const after = (await next.boundingBox())!;
    expect(after.y).toBeGreaterThanOrEqual(box.y + box.height + 8);
  }
});

test("the plan names the entry it cuts before by its line and words, the id on hover", async ({ app, page }) => {
  await app.importFile(resolve(ROOT, 'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'));
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.layered').check();
  await page.getByTestId('compact.option.keepTurns').fill('2');
  const cut = page.getByTestId('plan.cut');
  await expect(cut).toBeVisible({ timeout: 30_000 });
  const ref = cut.getByTestId('note.entry-ref');
  await expect(ref).toHaveText(/^line \d+( ".+")?$/);
  await expect(ref).toHaveAttribute('title', /^[0-9a-f-]{36}$/);
  // The layered plan's notes name the cut's entry the same way.
  await expect(page.getByTestId('plan.notes').getByTestId('note.entry-ref').first()).toHaveText(/^line \d+/);
});
