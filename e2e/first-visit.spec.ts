/**
 * First visit: two tabs opened at once on an empty origin seed the generated demo session exactly
 * once (a Web Lock serialises the seeders and the flag is read again inside it); the service
 * worker, which stores the whole app, is registered only once the demo is imported, counted and
 * shown; a start-up chunk that cannot load is reported in the shell.
 */
import { expect, test } from '@playwright/test';

const DEMO = 'Demo: a coding-agent session (generated)';

test('two tabs opening at once import the demo once', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  const [first, second] = await Promise.all([context.newPage(), context.newPage()]);
  await Promise.all([first.goto('./'), second.goto('./')]);
  for (const page of [first, second]) {
    await expect(page.getByTestId('library.item').filter({ hasText: DEMO }).first()).toBeVisible({ timeout: 60_000 });
  }
  // Both tabs have mounted (their library renders), so both asked for the lock: wait until it is free.
  await expect
    .poll(() => first.evaluate(async () => {
      const state = await navigator.locks.query();
      return [...(state.held ?? []), ...(state.pending ?? [])].filter((lock) => lock.name === 'foldlab-seed').length;
    }), { timeout: 30_000 })
    .toBe(0);
  for (const page of [first, second]) {
    await expect(page.getByTestId('library.item').filter({ hasText: DEMO })).toHaveCount(1);
  }
  await second.reload();
  await expect(second.getByTestId('library.item').first()).toBeVisible({ timeout: 30_000 });
  await expect(second.getByTestId('library.item').filter({ hasText: DEMO })).toHaveCount(1);
  await context.close();
});

test('a start-up chunk that cannot load is reported in the shell', async ({ page }) => {
  await page.route(/\/assets\/app-mount-[\w-]+\.js$/, (route) => route.abort());
  await page.goto('./');
  await expect(page.getByRole('alert')).toContainText('Foldlab could not start');
  await expect(page.getByRole('heading', { name: 'Foldlab' })).toBeVisible();
  // The shell's "Loading…" note gives way to the message.
  await expect(page.getByTestId('shell.loading')).toHaveCount(0);
});

test('the service worker is registered once the demo is imported, counted and shown', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const page = await context.newPage();
  // Records what the page showed when the app asked to register its service worker.
  await page.addInitScript(() => {
    const container = navigator.serviceWorker;
    const register = container.register.bind(container);
    container.register = (...args: Parameters<ServiceWorkerContainer['register']>) => {
      const shown = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
      (window as unknown as { __registeredWhile: unknown }).__registeredWhile = { title: shown('conversation.title'), total: shown('totals.total'), job: shown('job.progress') };
      return register(...args);
    };
  });
  await page.goto('./');
  await expect(page.getByTestId('totals.total')).toBeVisible({ timeout: 60_000 });
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toContain(process.env.BASE_PATH ?? '/foldlab/');
  const registeredWhile = await page.evaluate(() => (window as unknown as { __registeredWhile?: { title: string | null; total: string | null; job: string | null } }).__registeredWhile);
  expect(registeredWhile?.title).toContain(DEMO);
  expect(registeredWhile?.total).toMatch(/\d/);
  expect(registeredWhile?.job).toBeNull();
  await context.close();
});
