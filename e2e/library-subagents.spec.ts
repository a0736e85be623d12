/**
 * A Claude Code session imported with its subagents (a folder, or several files) lists them under
 * it in the library, reachable by keyboard; each `.meta.json` names its subagent and is never
 * imported; a subagent imported without its session says the session is not imported.
 */
import { resolve } from 'node:path';
import { expect, ROOT, test } from './fixtures/app.ts';

const FIXTURES = resolve(ROOT, 'src/core/import/__fixtures__/claude-code');
const SESSION = 'ef958aa1-0e93-49f0-bb71-150f63befcd1';

async function waitForImports(page: import('@playwright/test').Page, from: number, count: number): Promise<void> {
  await expect.poll(() => page.evaluate((start) => (window.__foldlab?.imports ?? []).length - start, from), { timeout: 120_000 }).toBeGreaterThanOrEqual(count);
}

test('a folder with a session and its subagents: nested, named from their .meta.json, keyboard-reachable', async ({ app, page }) => {
  test.setTimeout(180_000);
  const before = await app.importCount();
  // The fixtures folder: ef958aa1 with subagents/ (6 transcripts, 6 .meta.json), fe5e1c67 with five
  // subagents inline, two subagents whose sessions are not there, and a NOTICE.md.
  await page.getByTestId('import.folder-input').setInputFiles(FIXTURES);
  await waitForImports(page, before, 10);
  await expect(page.getByTestId('import.notice.error')).toHaveCount(0);

  const session = app.libraryItems().filter({ hasText: `${SESSION}.jsonl` }).first();
  const toggle = session.getByTestId('library.item.subagents-toggle');
  await expect(toggle).toHaveText('Show 6 subagents');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const nested = session.getByTestId('library.subagents').getByTestId('library.item');
  await expect(nested).toHaveCount(6);
  await expect(nested.filter({ hasText: 'Research Claude Code plan mode' }).getByTestId('library.item.subagent')).toHaveText('subagent (general-purpose)');
  // No metadata file became a conversation.
  await expect(app.libraryItems().filter({ hasText: '.meta.json' })).toHaveCount(0);

  // Arrow keys go from the session into its subagents.
  await session.getByTestId('library.item.open').first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator(':focus')).toHaveText(/Round 2|Research/);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('conversation.title')).toHaveText(/Round 2|Research/);

  // The older session's inline subagents are conversations of their own under it.
  const inline = app.libraryItems().filter({ hasText: 'Empty Repo Setup' }).first();
  await inline.getByTestId('library.item.subagents-toggle').click();
  await expect(inline.getByTestId('library.subagents').getByTestId('library.item')).toHaveCount(5);
  await expect(inline.getByTestId('library.subagents')).toContainText('Create data models');

  // A subagent whose session was not imported stays at the top level and says so.
  const lone = app.libraryItems().filter({ hasText: 'agent-c8d9b115.jsonl' });
  await expect(lone.getByTestId('library.item.subagent')).toHaveText('subagent · of session a7da6a22 (not imported)');
  await lone.getByTestId('library.item.open').click();
  await expect(page.getByTestId('conversation.subagent-of')).toHaveText('subagent · of session a7da6a22 (not imported)');
});

test('several files picked together link a subagent to its session', async ({ app, page }) => {
  const before = await app.importCount();
  await page.getByTestId('import.input').setInputFiles([
    resolve(FIXTURES, `${SESSION}.jsonl`),
    resolve(FIXTURES, SESSION, 'subagents', 'agent-a52886dc180afb356.jsonl'),
    resolve(FIXTURES, SESSION, 'subagents', 'agent-a52886dc180afb356.meta.json'),
  ]);
  await waitForImports(page, before, 2);
  const session = app.libraryItems().filter({ hasText: `${SESSION}.jsonl` }).first();
  await session.getByTestId('library.item.subagents-toggle').click();
  const child = session.getByTestId('library.subagents').getByTestId('library.item');
  await expect(child).toHaveCount(1);
  await expect(child.locator('.title')).toHaveText('Research Claude Code teammates');
  await expect(page.getByTestId('import.notice.error')).toHaveCount(0);
  // The subagent's conversation names its session and opens it.
  await child.getByTestId('library.item.open').click();
  await expect(page.getByTestId('conversation.subagent-of')).toContainText('subagent (general-purpose) · of');
  await page.getByTestId('conversation.subagent-of.open').click();
  // Titled by its first request; the file name stays beside it.
  await expect(page.getByTestId('conversation.meta')).toContainText(`${SESSION}.jsonl`);
  await expect(page.getByTestId('conversation.title')).not.toHaveText(`${SESSION}.jsonl`);
});
