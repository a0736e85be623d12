/** Import every supported format through the file chooser; the figures shown equal the CLI's. */
import { cliInspectLater, expect, fixture, sample, test } from './fixtures/app.ts';

const FILES = [
  { name: 'Claude Code session', path: sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl') },
  { name: 'Claude Code rewind + compaction', path: sample('claude-code/dag_compact_after_rewind.jsonl') },
  { name: 'Codex rollout', path: sample('codex/schema-coverage.jsonl') },
  { name: 'pi v1 session', path: sample('pi/large-session.jsonl') },
  { name: 'pi v3 tree', path: sample('pi/v3-small.jsonl') },
  { name: 'OpenAI Chat Completions (tau-bench)', path: sample('openai-chat/gpt-4o-airline.json') },
  { name: 'Anthropic Messages', path: fixture('anthropic-messages.json') },
];

for (const file of FILES) {
  test(`imports a ${file.name} with the CLI's totals`, async ({ app, page }) => {
    // The CLI reads the file while the page imports it.
    const [expected] = await Promise.all([cliInspectLater(file.path), app.importFile(file.path)]);
    await expect(page.getByTestId('conversation.meta')).toBeVisible();
    expect(await app.entryCount()).toBe(expected.entries);
    expect(await app.totalTokens()).toBe(expected.tokens.total);
    const outcome = await app.reportFor(file.path);
    expect(outcome?.format).toBe(expected.format);
    expect(outcome?.toolCalls).toBe(expected.toolCalls);
    expect(outcome?.toolResults).toBe(expected.toolResults);
    expect(outcome?.roles).toEqual(expected.roles);
    await expect(page.getByTestId('transcript.entry').first()).toBeVisible();
  });
}

test('the first screen shows the generated demo session', async ({ app, page }) => {
  await app.waitForDemo();
  expect(await app.entryCount()).toBeGreaterThan(300);
  await expect(page.getByTestId('transcript.tool-pair').first()).toBeVisible();
});

test('a sample opens with one click', async ({ app, page }) => {
  const expected = cliInspectLater(sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'));
  await page.getByTestId('samples.claude-code').click();
  await expect(page.getByTestId('conversation.title')).not.toContainText('Demo', { timeout: 30_000 });
  expect(await app.entryCount()).toBe((await expected).entries);
});

test('the format can be forced', async ({ app }) => {
  await app.importFile(fixture('anthropic-messages.json'), 'openai-chat');
  const format = (await app.reportFor(fixture('anthropic-messages.json')))?.format;
  expect(format).toBe('openai-chat');
});
