/**
 * The context as sent on the Claude Code sample: the gauge draws the unseen prefix (system prompt,
 * tool definitions) as a band of its own with the sentence saying where it comes from, and the
 * Compact plan and the run it stores state their before and after the same way; a transcript without usage takes the
 * estimate entered in the page.
 */
import { expect, sample, test } from './fixtures/app.ts';

const CLAUDE = sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
const CODEX = sample('codex/schema-coverage.jsonl');
const SENTENCE = /^\s*[\d,]+ sent = [\d,]+ in the transcript \+ 18,094 not in it: system prompt and tool definitions, from the usage recorded at call 2$/;

test('the gauge and the plan count the unseen prefix recorded by the agent', async ({ app, page }) => {
  await app.importFile(CLAUDE);
  const band = page.getByTestId('gauge.prefix');
  await expect(band).toBeVisible({ timeout: 30_000 });
  await expect(band).toHaveAttribute('data-tokens', '18094');
  await expect(page.getByTestId('gauge.sent')).toHaveText(SENTENCE);
  await expect(page.getByRole('meter', { name: 'Context used' })).toHaveAttribute('aria-valuetext', SENTENCE);
  // The gauge's total is the transcript plus the prefix.
  const sentence = (await page.getByTestId('gauge.sent').textContent())!.trim();
  const [sent, transcript] = [...sentence.matchAll(/[\d,]+/g)].map((m) => Number(m[0].replace(/,/g, '')));
  expect(sent).toBe(transcript! + 18_094);
  await expect(page.getByTestId('gauge.text')).toContainText(`${sent!.toLocaleString('en-US')} /`);

  // At 80k pi fires (79,746 sent > 80,000 - 16,384), so the plan has a run to store.
  await page.getByTestId('gauge.preset').selectOption('custom');
  await page.getByTestId('gauge.custom').fill('80000');
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.pi').check();
  await expect(page.getByTestId('plan.sent.before')).toHaveText(new RegExp(`^Before: ${sentence.replace(/[+.]/g, '\\$&')}$`), { timeout: 30_000 });
  await expect(page.getByTestId('plan.sent.after')).toContainText('18,094 not in it: system prompt and tool definitions, from the usage recorded at call 2');
  // The stored run keeps the prefix it was computed with and states the plan's figures again.
  const planAfter = (await page.getByTestId('plan.sent.after').textContent())!;
  await page.getByTestId('compact.run').click();
  await expect(page.getByTestId('run.sent.before')).toHaveText(new RegExp(`^Before: ${sentence.replace(/[+.]/g, '\\$&')}$`), { timeout: 60_000 });
  await expect(page.getByTestId('run.sent.after')).toHaveText(planAfter);
});

test('without recorded usage the estimate entered in the page is the prefix', async ({ app, page }) => {
  await app.importFile(CODEX);
  await expect(page.getByTestId('gauge.sent')).toContainText('+ 0: no usage recorded; enter one in settings', { timeout: 30_000 });
  await expect(page.getByTestId('gauge.prefix')).toHaveCount(0);
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('unseen.choice').selectOption('claude-code');
  await expect(page.getByTestId('unseen.note')).toContainText('An estimate of 17,400 tokens');
  await expect(page.getByTestId('gauge.prefix')).toHaveAttribute('data-tokens', '17400');
  await expect(page.getByTestId('plan.sent.before')).toContainText('17,400 not in it: system prompt and tool definitions (estimate: claude-code preset)', { timeout: 30_000 });
});
