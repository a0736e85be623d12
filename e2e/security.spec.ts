/**
 * What a transcript contains is rendered as text: a file full of XSS payloads and remote image
 * links executes nothing and loads nothing, and the production page carries its CSP.
 */
import { expect, fixture, test } from './fixtures/app.ts';

test('XSS payloads and remote images in a transcript neither execute nor load', async ({ app, page }) => {
  const external: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.hostname !== '127.0.0.1' && !url.protocol.startsWith('data') && !url.protocol.startsWith('blob')) external.push(request.url());
  });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await app.importFile(fixture('xss-payloads.json'));
  await expect(page.getByTestId('transcript.entry').first()).toBeVisible();
  await expect(page.getByTestId('transcript.list')).toContainText('<img src="https://evil.example/pixel.png"');
  // Scroll through the whole transcript so every row renders once.
  await page.getByTestId('transcript.list').evaluate(async (list) => {
    for (let y = 0; y <= list.scrollHeight; y += 300) {
      list.scrollTop = y;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  });
  await page.getByTestId('verbosity.compact').check();
  await page.getByTestId('tab.compact').click();
  await expect(page.getByTestId('plan.tokens')).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(external).toEqual([]);
  expect(await page.locator('img, iframe, svg[onload], script:not([type="module"])').count()).toBe(0);
});

test('the production page declares a strict Content-Security-Policy', async ({ app, page }) => {
  void app;
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).toContain("img-src 'self' data: blob:");
  expect(csp).toContain('connect-src');
  expect(csp).not.toContain("'unsafe-eval'");
});
