/** Switching the counter recounts in the worker and changes the totals; the gauge follows the window. */
import { cliInspectLater, expect, sample, test } from './fixtures/app.ts';

test('switching the counter changes the totals to that counter\'s', async ({ app, page }) => {
  const file = sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
  // The CLI counts with each counter while the page imports and recounts.
  const [cliO200k, cliChars4, cliCl100k] = ['o200k', 'chars4', 'cl100k'].map((counter) => cliInspectLater(file, counter).then((report) => report.tokens.total));
  await app.importFile(file);
  const o200k = await app.totalTokens();
  expect(o200k).toBe(await cliO200k);

  await page.getByTestId('counter.select').selectOption('chars4');
  await expect(page.getByTestId('totals')).toContainText('chars/4');
  const chars4 = await app.totalTokens();
  expect(chars4).toBe(await cliChars4);
  expect(chars4).not.toBe(o200k);

  await page.getByTestId('counter.select').selectOption('cl100k');
  await expect(page.getByTestId('totals')).toContainText('cl100k_base');
  expect(await app.totalTokens()).toBe(await cliCl100k);
  await expect(page.getByTestId('transcript.entry.tokens').first()).toContainText('cl100k_base');
});

test('the gauge measures against the chosen window', async ({ app, page }) => {
  await app.waitForDemo();
  await page.getByTestId('gauge.preset').selectOption('custom');
  await page.getByTestId('gauge.custom').fill('1000');
  await expect(page.getByTestId('gauge.text')).toContainText('over the window');
  await page.getByTestId('gauge.preset').selectOption('claude-1m');
  await expect(page.getByTestId('gauge.text')).toContainText('/ 1M tokens');
});
