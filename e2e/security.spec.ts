/**
 * What a transcript contains is rendered as text: a file full of XSS payloads and remote image
 * links executes nothing and loads nothing, and the production page carries its CSP and enforces
 * it: an inline script, an inline handler and an off-list image are refused in the built page.
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

test('the CSP refuses, at run time, an inline script and an image from an origin off its list', async ({ app, page }) => {
  void app;
  // The off-list origin answers through a route: a refused load never reaches it, a failed one would.
  const hits: string[] = [];
  await page.route('https://offlist.example/**', async (route) => {
    hits.push(route.request().url());
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
    await route.fulfill({ status: 200, contentType: new URL(route.request().url()).pathname.endsWith('.png') ? 'image/png' : 'text/plain', headers: { 'access-control-allow-origin': '*' }, body: png });
  });
  const result = await page.evaluate(async () => {
    const violations: Array<{ directive: string; blocked: string }> = [];
    document.addEventListener('securitypolicyviolation', (event) => violations.push({ directive: event.effectiveDirective, blocked: event.blockedURI }));
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true;';
    document.body.append(script);
    const holder = document.createElement('div');
    holder.innerHTML = '<img id="handler" src="data:," onerror="window.__handlerRan = true">';
    document.body.append(holder);
    const image = await new Promise<string>((resolve) => {
      const img = document.createElement('img');
      img.onload = () => resolve('loaded');
      img.onerror = () => resolve('refused');
      img.src = 'https://offlist.example/pixel.png';
      document.body.append(img);
    });
    // The same origin through connect-src (any https origin is allowed there) does reach the route.
    const ping = await fetch('https://offlist.example/ping').then((response) => response.status, (error: unknown) => String(error));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const flags = window as unknown as { __inlineRan?: boolean; __handlerRan?: boolean };
    return { violations, image, ping, inlineRan: flags.__inlineRan ?? false, handlerRan: flags.__handlerRan ?? false };
  });
  expect(result.inlineRan).toBe(false);
  expect(result.handlerRan).toBe(false);
  expect(result.image).toBe('refused');
  expect(result.violations).toEqual(
    expect.arrayContaining([
      { directive: 'script-src-elem', blocked: 'inline' },
      { directive: 'script-src-attr', blocked: 'inline' },
      { directive: 'img-src', blocked: 'https://offlist.example/pixel.png' },
    ]),
  );
  expect(result.ping).toBe(200);
  expect(hits).toEqual(['https://offlist.example/ping']);
});
