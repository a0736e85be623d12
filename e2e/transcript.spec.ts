/** The transcript view: tool calls beside their results, verbosity modes, branches, placeholders, no page stalls. */
import { expect, fixture, sample, test } from './fixtures/app.ts';

test('a tool call shows its result beside it, a result links back to its call, and an entry pins and unpins', async ({ app, page }) => {
  await app.importFile(fixture('anthropic-messages.json'));
  const pair = page.getByTestId('transcript.tool-pair').first();
  await expect(pair).toContainText('Bash');
  await expect(pair).toContainText("error TS2322");
  await expect(page.locator('.entry.has-error').first()).toBeVisible();
  await expect(page.getByText('shown beside its call').first()).toBeVisible();
  // Pinning is stored and read back: the button shows the stored state, both ways.
  const pin = page.getByTestId('transcript.entry.pin').first();
  await pin.click();
  await expect(pin).toHaveAttribute('aria-pressed', 'true');
  await pin.click();
  await expect(pin).toHaveAttribute('aria-pressed', 'false');
});

test('verbosity modes change what is shown', async ({ app, page }) => {
  await app.importFile(fixture('anthropic-messages.json'));
  const rows = page.getByTestId('transcript.count');
  const all = Number((await rows.textContent())?.replace(/[^0-9]/g, ''));
  await page.getByTestId('verbosity.quiet').check();
  await expect(rows).not.toHaveText(`${all} rows`);
  const quiet = Number((await rows.textContent())?.replace(/[^0-9]/g, ''));
  expect(quiet).toBeLessThan(all);
  await expect(page.getByTestId('transcript.entry').last()).toContainText('Fixed: port is now parsed');
  await expect(page.getByTestId('transcript.entry').last().locator('.markdown code').first()).toHaveText('port');
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

test('rows are drawn at their measured places while the transcript scrolls, never overlapping at their estimates', async ({ app, page }) => {
  await app.importFile(sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'));
  const list = page.getByTestId('transcript.list');
  await expect(page.getByTestId('transcript.entry').first()).toBeVisible();
  // An observer created after the list's own: called in the same step, after the list has applied
  // the sizes of the rows just laid out, and before the frame is painted.
  await page.evaluate(() => {
    const w = window as unknown as { __overlaps: string[]; __checks: number };
    w.__overlaps = [];
    w.__checks = 0;
    const viewport = document.querySelector<HTMLElement>('[data-testid="transcript.list"]')!;
    const check = () => {
      w.__checks += 1;
      const top = viewport.scrollTop;
      const rows = [...viewport.querySelectorAll<HTMLElement>('.transcript-row')]
        .map((row) => ({ index: row.dataset.index, start: new DOMMatrix(getComputedStyle(row).transform).m42, size: row.offsetHeight }))
        .filter((row) => row.start < top + viewport.clientHeight && row.start + row.size > top)
        .sort((a, b) => a.start - b.start);
      for (let i = 1; i < rows.length; i++) {
        const [before, after] = [rows[i - 1]!, rows[i]!];
        if (before.start + before.size > after.start + 1) w.__overlaps.push(`row ${before.index} (${before.start}+${before.size}) over row ${after.index} (${after.start})`);
      }
    };
    const observer = new ResizeObserver(check);
    const watch = () => viewport.querySelectorAll('.transcript-row').forEach((row) => observer.observe(row));
    new MutationObserver(watch).observe(viewport, { childList: true, subtree: true });
    watch();
  });
  await list.hover();
  for (let step = 0; step < 12; step++) {
    await page.mouse.wheel(0, 900);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  }
  const { overlaps, checks } = await page.evaluate(() => {
    const w = window as unknown as { __overlaps: string[]; __checks: number };
    return { overlaps: w.__overlaps, checks: w.__checks };
  });
  expect(checks).toBeGreaterThan(5);
  expect(overlaps).toEqual([]);
  expect(await list.evaluate((element) => element.scrollTop)).toBeGreaterThan(5_000);
});
