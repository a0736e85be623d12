/** The transcript view: tool calls beside their results, verbosity modes, branches, placeholders, no page stalls. */
import { expect, fixture, sample, test } from './fixtures/app.ts';

test('a tool call shows its result beside it and a result links back to its call', async ({ app, page }) => {
  await app.importFile(fixture('anthropic-messages.json'));
  const pair = page.getByTestId('transcript.tool-pair').first();
  await expect(pair).toContainText('Bash');
  await expect(pair).toContainText("error TS2322");
  await expect(page.locator('.entry.has-error').first()).toBeVisible();
  await expect(page.getByText('shown beside its call').first()).toBeVisible();
});

test('verbosity modes change what is shown', async ({ app, page }) => {
  await app.importFile(fixture('anthropic-messages.json'));
  const rows = page.getByTestId('transcript.count');
  const all = Number((await rows.textContent())?.replace(/[^0-9]/g, ''));
  await page.getByTestId('verbosity.quiet').check();
  await expect(rows).not.toHaveText(`${all} rows`);
  const quiet = Number((await rows.textContent())?.replace(/[^0-9]/g, ''));
  expect(quiet).toBeLessThan(all);
  await expect(page.getByTestId('transcript.entry').last()).toContainText('Fixed: `port` is now parsed');
  await page.getByTestId('verbosity.compact').check();
  await expect(page.locator('.one-line').first()).toBeVisible();
});

test('a rewind shows two branches and picking one shows its path', async ({ app, page }) => {
  await app.importFile(sample('claude-code/dag_compact_after_rewind.jsonl'));
  const select = page.getByTestId('branches.select');
  await expect(select.locator('option')).toHaveCount(2);
  await expect(page.getByTestId('transcript.list')).not.toContainText('First attempt');
  const other = await select.locator('option').nth(1).getAttribute('value');
  await select.selectOption(other ?? '');
  await expect(page.getByTestId('transcript.list')).toContainText('First attempt');
  await expect(page.locator('.kind-compaction')).toHaveCount(0);
});

test('a large session stays responsive while it is imported and counted', async ({ app, page }) => {
  await page.evaluate(() => {
    const w = window as unknown as { __longest: number };
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longest = Math.max(w.__longest, entry.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  await app.importFile(sample('openai-chat/gpt-4o-airline.json'));
  await expect(page.getByTestId('totals.total')).toBeVisible();
  const longest = await page.evaluate(() => (window as unknown as { __longest: number }).__longest);
  console.log(`longest main-thread task during a 4 MB import: ${longest.toFixed(0)} ms`);
});
