/**
 * The agents' formats beside Claude Code, Codex and pi, imported through the file chooser (a file,
 * or a folder picked whole): the
 * figures shown (and the recorded usage of the import report) equal the CLI's, and Compare replays the imported session with the CLI's number of
 * calls.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { cliInspectLater, cliLater, expect, sample, test, type AppPage } from './fixtures/app.ts';

interface Source {
  name: string;
  path: string;
  format: string;
  /** A folder picked whole, imported as this conversation file name. */
  folderAs?: string;
  /** A Cursor chat store (the path's part before '#') picked as a file, this conversation checked. */
  storeAs?: string;
}

const CURSOR_MAIN = 'a1b2c3d4-0000-4000-8000-000000000001';

const FILES: Source[] = [
  { name: 'OpenHands trajectory', path: sample('openhands/basic_gui_mode.json'), format: 'openhands' },
  { name: 'Gemini CLI chat (JSONL)', path: sample('gemini-cli/jsonl_v040.jsonl'), format: 'gemini-cli' },
  { name: 'Gemini CLI chat (JSON)', path: sample('gemini-cli/large.json'), format: 'gemini-cli' },
  { name: 'opencode storage folder', path: sample('opencode/storage'), format: 'opencode', folderAs: 's_stage0_large.json' },
  { name: 'GitHub Copilot CLI session', path: sample('copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e/events.jsonl'), format: 'copilot-cli' },
  { name: 'Factory Droid exec stream-json', path: sample('droid/exec-rc-claude.jsonl'), format: 'droid' },
  { name: 'Kimi CLI session folder', path: sample('kimi/7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35'), format: 'kimi', folderAs: 'wire.jsonl' },
  { name: 'Kimi Code session folder', path: sample('kimi-code/session_4e1b7c2a-9d3f-4a86-b5e0-7c21f8d3a94b'), format: 'kimi-code', folderAs: 'session_4e1b7c2a-9d3f-4a86-b5e0-7c21f8d3a94b.jsonl' },
  { name: 'Cline task folder', path: sample('cline/1764201600000'), format: 'cline', folderAs: '1764201600000.json' },
  { name: 'Cursor agent transcript', path: sample('cursor/test-session.jsonl'), format: 'cursor' },
  { name: 'Cursor chat store (state.vscdb)', path: `${sample('cursor/state.vscdb')}#${CURSOR_MAIN}`, format: 'cursor', storeAs: `${CURSOR_MAIN}.json` },
];

/** Picks the folder whole (or a file holding several sessions) and waits for the conversation it becomes. */
async function importFolder(app: AppPage, page: Page, path: string, name: string, input = 'import.folder-input'): Promise<void> {
  const before = await app.importCount();
  await page.getByTestId(input).setInputFiles(path);
  await expect
    .poll(() => page.evaluate(({ from, file }) => (window.__foldlab?.imports ?? []).slice(from).some((o) => o.conversation.fileName === file), { from: before, file: name }), { timeout: 45_000, intervals: [100, 250] })
    .toBe(true);
  await expect(page.getByTestId('conversation.meta')).toContainText(name, { timeout: 15_000 });
}

/** The calls `cli eval --json` replays for the file under sliding-window (chars/4, a 50,000 window), run in the background. */
async function cliCalls(file: string): Promise<number> {
  const out = await cliLater(['eval', file, '--strategies', 'sliding-window', '--counter', 'chars4', '--window', '50000', '--json']);
  // A session with branches reports each (its active one last); the page replays the active one.
  const report = JSON.parse(out) as { files: Array<{ calls: number; thread?: string; branch?: { index: number; of: number } }> };
  const session = report.files.filter((file) => file.thread === undefined);
  return (session.find((file) => file.branch?.index === file.branch?.of) ?? session[0]!).calls;
}

for (const file of FILES) {
  test(`imports ${file.name} with the CLI's totals and compares it`, async ({ app, page }) => {
    // The CLI's figures are worked out while the page imports (both are awaited before any check).
    const inspected = cliInspectLater(file.path);
    const replayed = cliCalls(file.path);
    const imported = file.folderAs ? importFolder(app, page, file.path, file.folderAs)
      : file.storeAs ? importFolder(app, page, file.path.split('#')[0]!, file.storeAs, 'import.input')
      : app.importFile(file.path);
    const [expected] = await Promise.all([inspected, replayed, imported]);
    expect(expected.format).toBe(file.format);
    await expect(page.getByTestId('conversation.meta')).toBeVisible();
    expect(await app.entryCount()).toBe(expected.entries);
    expect(await app.totalTokens()).toBe(expected.tokens.total);
    const outcome = await app.reportFor(file.folderAs ?? file.storeAs ?? file.path);
    expect(outcome?.format).toBe(file.format);
    expect(outcome?.toolCalls).toBe(expected.toolCalls);
    expect(outcome?.toolResults).toBe(expected.toolResults);
    expect(outcome?.roles).toEqual(expected.roles);
    expect(outcome?.usage).toEqual(expected.usage);
    if (file.format === 'kimi-code') {
      // The subagent is tied to the session's Agent call as on the command line (src/worker/import/import-kimi-code.test.ts): titled by its description, noted with its type.
      const session = app.libraryItems().filter({ hasText: file.folderAs! }).first();
      await session.getByTestId('library.item.subagents-toggle').click();
      const subagent = session.getByTestId('library.subagents').getByTestId('library.item');
      await expect(subagent.getByTestId('library.item.open')).toContainText('Find parseDuration callers');
      await expect(subagent.getByTestId('library.item.subagent')).toHaveText('subagent (explore)');
    }

    const calls = await replayed;
    await page.getByTestId('counter.select').selectOption('chars4');
    await page.getByTestId('gauge.preset').selectOption('custom');
    await page.getByTestId('gauge.custom').fill('50000');
    await page.getByTestId('tab.compare').click();
    await expect(page.getByTestId('compare.window')).toHaveAttribute('data-value', '50000');
    const rows = page.getByTestId('compare.configs').locator('> ol > li');
    while ((await rows.count()) > 1) await page.getByTestId(`compare.config.${(await rows.count()) - 1}.remove`).click();
    await page.getByTestId('compare.config.0.strategy').selectOption('sliding-window');
    await page.getByTestId('compare.run').click();
    await expect(page.getByTestId('compare.totals.0')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('compare.totals.0.calls')).toHaveAttribute('data-value', String(calls));
  });
}

test('a Cursor transcripts folder picked whole lists the subagent in <session>/subagents/ under its session', async ({ app, page }) => {
  const before = await app.importCount();
  await page.getByTestId('import.folder-input').setInputFiles(sample('cursor/agent-transcripts'));
  // Both transcripts imported (the first-visit demo may finish in between).
  await expect
    .poll(() => page.evaluate((from) => (window.__foldlab?.imports ?? []).slice(from).map((o) => o.conversation.fileName).sort().join(' '), before), { timeout: 45_000 })
    .toMatch(/child\.jsonl.*parent\.jsonl/);
  const session = app.libraryItems().filter({ hasText: 'parent.jsonl' }).first();
  await expect(session.getByTestId('library.item.subagents-toggle')).toHaveText('Show 1 subagent');
});

test('a cut-off Cursor chat store is refused with its reason and nothing is imported', async ({ app, page }, testInfo) => {
  const cut = testInfo.outputPath('state.vscdb');
  writeFileSync(cut, readFileSync(sample('cursor/state.vscdb')).subarray(0, 6000));
  const before = await app.importCount();
  const error = await app.importFailing(cut);
  expect(error).toMatch(/"state\.vscdb" (is not a readable SQLite database|: the \w+ table could not be read)/);
  expect(await page.evaluate((from) => (window.__foldlab?.imports ?? []).slice(from).filter((o) => o.report.format === 'cursor').length, before)).toBe(0);
});

test("a Copilot CLI session folder picked whole takes its title from workspace.yaml and shows the session's branch and start as the CLI does", async ({ app, page }, testInfo) => {
  // The real session folder, renamed as `/rename` does (workspace.yaml's name), so the title can only come from it.
  const folder = testInfo.outputPath('049410b4-c1df-44ee-87a5-caa1c349091e');
  cpSync(sample('copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e'), folder, { recursive: true });
  const workspace = join(folder, 'workspace.yaml');
  writeFileSync(workspace, readFileSync(workspace, 'utf8').replace(/^name: .*$/m, 'name: Empty carts average to 0').replace('user_named: false', 'user_named: true'));
  await importFolder(app, page, folder, 'events.jsonl');
  await expect(page.getByTestId('conversation.title')).toHaveText('Empty carts average to 0');
  // `npm run cli -- inspect <folder>/events.jsonl --json` on the same folder: its title, its session
  // facts (session.start's context.branch and startTime) and 7 entries of 6,251 o200k tokens.
  await expect(page.getByTestId('conversation.session.branch')).toHaveText('branch master');
  await expect(page.getByTestId('conversation.session.created')).toHaveText('created 2026-08-05 20:40:13 UTC');
  await expect(page.getByTestId('conversation.session')).toHaveText('cwd /work · branch master · created 2026-08-05 20:40:13 UTC · model qwen3:0.6b · version 1.0.78');
  expect(await app.entryCount()).toBe(7);
  expect(await app.totalTokens()).toBe(6251);
  expect(await app.reportFor('events.jsonl')).toMatchObject({ format: 'copilot-cli', toolCalls: 2, toolResults: 2 });
});

test("the other forms (Droid's session store, opencode's message list, Cursor's workspace store, opencode's SQLite store) import with the CLI's totals", async ({ app, page }) => {
  const workspace = '6f1c2a9e-0000-4000-8000-00000000000b';
  const forms = [
    { path: sample('droid/b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl'), name: 'b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl' },
    { path: sample('opencode/sandbox-agent-messages.json'), name: 'sandbox-agent-messages.json' },
    { path: `${sample('cursor/workspace/state.vscdb')}#${workspace}`, name: `${workspace}.json`, store: true },
    // After Cursor's store: the SQLite reader (sql.js) is loaded once for both (about a second of the first store's import).
    // The CLI reads the storage folder's session (6 entries, 50 o200k tokens, 1 call with its result; src/sqlite/opencode-db.test.ts).
    { path: sample('opencode/opencode.db'), name: 's_stage0_large.json', store: true },
  ];
  // The CLI reads them while the page imports them one by one.
  const inspected = forms.map((form) => cliInspectLater(form.path));
  // The page's figures are read as each import lands; the CLI's are awaited only to compare them.
  for (const [i, form] of forms.entries()) {
    if (form.store) await importFolder(app, page, form.path.split('#')[0]!, form.name, 'import.input');
    else await app.importFile(form.path);
    const shown = { entries: await app.entryCount(), tokens: await app.totalTokens(), outcome: await app.reportFor(form.name) };
    const expected = await inspected[i]!;
    expect(shown.entries, form.name).toBe(expected.entries);
    expect(shown.tokens, form.name).toBe(expected.tokens.total);
    expect(shown.outcome, form.name).toEqual(expect.objectContaining({ format: expected.format, toolCalls: expected.toolCalls, toolResults: expected.toolResults, roles: expected.roles, usage: expected.usage }));
  }
});
