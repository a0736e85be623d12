/**
 * First visit: two tabs opened at once on an empty origin seed the generated demo session exactly
 * once (a Web Lock serialises the seeders and the flag is read again inside it).
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
});
