/** The library survives a reload; rename, delete (after confirming) and re-import work. */
import { expect, sample, test } from './fixtures/app.ts';

const PI = sample('pi/v3-small.jsonl');

test('an imported conversation is still there after a reload', async ({ app, page }) => {
  await app.importFile(PI);
  const title = await page.getByTestId('conversation.title').textContent();
  await page.reload();
  await expect(app.libraryItems().filter({ hasText: title ?? '' })).toHaveCount(1);
  await expect(page.getByTestId('conversation.title')).toHaveText(title ?? '');
});

test('rename, then delete after confirmation', async ({ app, page }) => {
  await app.importFile(PI);
  const id = await app.libraryItems().filter({ has: page.locator('[aria-current="true"]') }).getAttribute('data-conversation-id');
  const item = page.locator(`[data-conversation-id="${id}"]`);
  await item.getByTestId('library.item.rename').click();
  await item.getByTestId('library.item.title-input').fill('Renamed session');
  await item.getByTestId('library.item.title-input').press('Enter');
  await expect(page.getByTestId('conversation.title')).toHaveText('Renamed session');
  await page.reload();
  const renamed = app.libraryItems().filter({ hasText: 'Renamed session' });
  await expect(renamed).toHaveCount(1);

  await renamed.getByTestId('library.item.delete').click();
  await page.getByTestId('confirm.cancel').click();
  await expect(renamed).toHaveCount(1);
  await renamed.getByTestId('library.item.delete').click();
  await page.getByTestId('confirm.ok').click();
  await expect(renamed).toHaveCount(0);
  await page.reload();
  await expect(app.libraryItems().filter({ hasText: 'Renamed session' })).toHaveCount(0);
});

test('re-import replaces the entries of the same conversation', async ({ app, page }) => {
  await app.importFile(PI);
  const count = await app.libraryItems().count();
  const item = app.libraryItems().filter({ has: page.locator('[aria-current="true"]') });
  const before = await app.importCount();
  await item.getByTestId('library.item.reimport-input').setInputFiles(sample('claude-code/dag_compact_after_rewind.jsonl'));
  await expect.poll(() => app.importCount()).toBeGreaterThan(before);
  await expect(app.libraryItems()).toHaveCount(count);
  await expect(page.getByTestId('conversation.meta')).toContainText('dag_compact_after_rewind.jsonl');
});
