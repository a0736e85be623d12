/**
 * Markdown in messages renders as elements: headings, lists, code, a table and links work, while
 * raw HTML, scripts, handlers, javascript: links and images in the same transcript stay inert text
 * (no dialog, no script run, no request to the image's address). Tool output stays preformatted.
 */
import { expect, fixture, test } from './fixtures/app.ts';

test('markdown renders as elements and hostile HTML in a message stays inert text', async ({ app, page }) => {
  const tracker: string[] = [];
  await page.route('https://tracker.example/**', async (route) => {
    tracker.push(route.request().url());
    await route.fulfill({ status: 204 });
  });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  await app.importFile(fixture('markdown-messages.json'));
  const reply = page.locator('[data-testid="transcript.entry"][data-role="assistant"]').filter({ hasText: 'Plan for the cart' }).locator('.markdown');
  await expect(reply).toBeVisible({ timeout: 30_000 });
  await expect(reply.locator('.md-heading.md-h1')).toHaveText('Plan for the cart');
  await expect(reply.locator('ul > li')).toHaveText(['read totals.ts', 'move the discount after shipping']);
  await expect(reply.locator('ul code')).toHaveText('totals.ts');
  await expect(reply.locator('strong')).toHaveText('after');
  await expect(reply.locator('ol > li')).toHaveCount(2);
  await expect(reply.locator('pre code')).toHaveText('const total = subtotal + shipping - discount;');
  await expect(reply.locator('table th')).toHaveText(['file', 'change']);
  await expect(reply.locator('table td')).toHaveText(['totals.ts', 'reorder']);
  const docs = reply.getByRole('link', { name: 'the docs' });
  await expect(docs).toHaveAttribute('href', 'https://docs.example/cart');
  await expect(docs).toHaveAttribute('target', '_blank');
  await expect(docs).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(reply.locator('a[href="mailto:dev@example.com"]')).toHaveCount(1);

  const hostile = page.locator('[data-testid="transcript.entry"][data-role="user"]').filter({ hasText: 'Hostile words' });
  await expect(hostile.locator('.markdown')).toBeVisible();
  // Every tag is shown as the characters it was written with.
  await expect(hostile).toContainText('<script>window.__xss=1</script>');
  await expect(hostile).toContainText('<img src="https://tracker.example/raw.png" onerror="window.__xss=2">');
  await expect(hostile).toContainText('<div onclick="window.__xss=3">raw block</div>');
  await expect(hostile).toContainText('<a href="javascript:window.__xss=5">raw link</a>');
  // A javascript: link keeps its words and loses its address; an image is named, never loaded.
  await expect(hostile.getByText('click me')).toBeVisible();
  await expect(hostile.locator('a[href^="javascript"], [onclick], [onerror]')).toHaveCount(0);
  await expect(hostile.locator('.md-image')).toContainText('pixel');
  await expect(page.locator('img, iframe, script:not([type="module"])')).toHaveCount(0);

  // Tool output is preformatted text: markdown in it is not read.
  const result = page.getByRole('group', { name: 'Result of a tool call' });
  await expect(result).toHaveText('# not a heading\n- not a list\n<b>not bold</b>');

  // Clicking the defused link goes nowhere and runs nothing.
  await hostile.getByText('click me').click();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(tracker).toEqual([]);
});
