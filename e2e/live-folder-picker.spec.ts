/**
 * A live session over a folder picked with the browser's folder picker, in Chromium. Headless
 * Chromium shows no picker, so `showDirectoryPicker` hands over a real directory handle from the
 * Origin Private File System (filled with a small folder); from there on everything is the app's
 * own path: the handle is stored in IndexedDB, posted to the session's worker and read at each
 * step. Covered: tool results with the files' real contents, the "modified externally" note after
 * an edit between turns, the folder offered again after a reload, and read permission asked again
 * (given, or refused with the journal kept and the folder picked again), and a kept folder deleted
 * since (the journal kept, the session opened again once the folder is back).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { AppPage, expect, fixture, test } from './fixtures/app.ts';
import { installFolderPicker, LivePage, removePickerFolder, revokeFolderPermission, storedEntries, writePickerFile, type PickerFolder } from './fixtures/live.ts';

const PNG_HEADER = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01];

const FOLDER: PickerFolder = {
  name: 'tiny-app',
  files: [
    { path: 'README.md', text: '# tiny-app\n\nA two-line app kept in the browser\'s private file system.\n' },
    { path: 'CODE_LAW.md', text: '# Code law\n\n1. Answer in one sentence.\n' },
    { path: 'notes/plan.txt', text: 'Plan v1: ship the parser on Monday.\n' },
    { path: 'src/app.ts', text: 'export const greeting = "hello from the picked folder";\n' },
    { path: 'assets/logo.png', bytes: PNG_HEADER },
  ],
};

test.describe.configure({ timeout: 180_000 });

/** The app opened with the picker stand-in in place, and a session started over the picked folder. */
async function startOverPickedFolder(page: Page): Promise<LivePage> {
  await installFolderPicker(page, FOLDER);
  await new AppPage(page).open();
  const live = new LivePage(page);
  await live.openSetup();
  await live.pickFolder();
  await expect(page.getByTestId('live.setup.folder-picked')).toContainText('tiny-app');
  await live.configure({ script: fixture('picker-script.json') });
  await live.begin();
  await expect(page.getByTestId('conversation.title')).toHaveText('Live: tiny-app');
  return live;
}

/** The text of every tool result of the chat, opened. */
async function toolResults(live: LivePage): Promise<string[]> {
  const results = live.chat().getByTestId('live.tool-result');
  for (const result of await results.all()) await result.locator('summary').click();
  return results.locator('pre').allTextContents();
}

function openedConversation(page: Page): Promise<string | null> {
  return page.locator('[data-testid="library.item"].selected').getAttribute('data-conversation-id');
}

test('a folder picked with the picker: real contents, the external-change note, and offered again after a reload', async ({ page }) => {
  const live = await startOverPickedFolder(page);

  // Turn 1: ls and read over the real handle.
  await live.send('What is here?');
  await expect(live.chat()).toContainText('A small app with a plan');
  await expect(live.chat().getByTestId('live.tool-result')).toHaveCount(4);
  const first = await toolResults(live);
  expect(first[0]).toMatch(/assets\//);
  expect(first[0]).toMatch(/notes\//);
  expect(first[0]).toContain('CODE_LAW.md');
  expect(first[0]).toContain('README.md');
  expect(first[1]).toContain('Plan v1: ship the parser on Monday.');
  expect(first[1]).not.toContain('modified externally');
  expect(first[2]).toContain('binary file (PNG image)');
  expect(first[2]).not.toContain('PNG\r\n');
  expect(first[3]).toContain('Answer in one sentence.');

  // An editor outside the app changes the plan between turns: the next read says so.
  await writePickerFile(page, FOLDER.name, 'notes/plan.txt', 'Plan v2: ship the parser on Friday.\n');
  await live.send('Read the plan again');
  await expect(live.chat()).toContainText('The plan was changed');
  const second = (await toolResults(live)).at(-1)!;
  expect(second).toContain('Note: notes/plan.txt was modified externally.');
  expect(second).toContain('Plan v2: ship the parser on Friday.');
  expect(second).not.toContain('Plan v1');

  // After a reload the kept handle is offered again; the browser still allows reading it.
  const id = await openedConversation(page);
  const stored = await storedEntries(page, id!);
  await page.reload();
  await page.getByTestId('tab.live').click();
  const reopen = page.getByTestId('live.reconnect.handle');
  await expect(reopen).toContainText('tiny-app');
  await expect(page.getByTestId('live.reconnect.permission')).toHaveCount(0);
  await reopen.click();
  await expect(page.getByTestId('live.panel')).toBeVisible({ timeout: 45_000 });
  await expect(live.chat().getByTestId('live.entry.user')).toHaveCount(2);
  await live.send('And after the reload?');
  await expect(live.chat()).toContainText('The folder still reads after the reload.');
  const third = await toolResults(live);
  expect(third.at(-2)).toContain('app.ts');
  expect(third.at(-1)).toContain('export const greeting = "hello from the picked folder";');
  expect((await storedEntries(page, id!)).slice(0, stored.length)).toEqual(stored);
});

test('after a reload the browser asks for read permission again: given on the click, the session continues', async ({ page }) => {
  const live = await startOverPickedFolder(page);
  await live.send('What is here?');
  await expect(live.chat()).toContainText('A small app with a plan');

  await revokeFolderPermission(page, 'granted');
  await page.reload();
  await page.getByTestId('tab.live').click();
  await expect(page.getByTestId('live.reconnect.permission')).toContainText('asks again');
  const axe = await new AxeBuilder({ page }).include('[data-testid="live.reconnect"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.getByTestId('live.reconnect.handle').click();
  await expect(page.getByTestId('live.panel')).toBeVisible({ timeout: 45_000 });
  expect(await page.evaluate(() => (window as unknown as { __permissionRequests: unknown[] }).__permissionRequests)).toEqual([{ mode: 'read' }]);
  await live.send('Read it now that permission is back');
  await expect(live.chat()).toContainText('Read the README again.');
  expect((await toolResults(live)).at(-1)).toContain('# tiny-app');
});

test('read permission refused after a reload: a clear message, the journal kept, and the folder picked again', async ({ page }) => {
  const live = await startOverPickedFolder(page);
  await live.send('What is here?');
  await expect(live.chat()).toContainText('A small app with a plan');
  const id = await openedConversation(page);
  const stored = await storedEntries(page, id!);

  await revokeFolderPermission(page, 'denied');
  await page.reload();
  await page.getByTestId('tab.live').click();
  await page.getByTestId('live.reconnect.handle').click();
  const error = page.getByTestId('live.reconnect.error');
  await expect(error).toContainText('not allowed');
  await expect(error).toContainText('tiny-app');
  await expect(error).toContainText('journal is kept');
  await expect(page.getByTestId('live.panel')).toHaveCount(0);
  await expect(page.getByTestId('live.reconnect.handle')).toBeEnabled();
  expect(await storedEntries(page, id!)).toEqual(stored);

  // The folder picked again through the picker: the session continues its journal.
  await page.getByTestId('live.reconnect.pick').click();
  await expect(page.getByTestId('live.panel')).toBeVisible({ timeout: 45_000 });
  await expect(live.chat()).toContainText('A small app with a plan');
  await live.send('Read it now that permission is back');
  await expect(live.chat()).toContainText('Read the README again.');
  expect((await storedEntries(page, id!)).slice(0, stored.length)).toEqual(stored);
});

test('a kept folder deleted since it was picked: a clear message, the journal kept, and opened again once it is back', async ({ page }) => {
  const live = await startOverPickedFolder(page);
  await live.send('What is here?');
  await expect(live.chat()).toContainText('A small app with a plan');
  const id = await openedConversation(page);
  const stored = await storedEntries(page, id!);

  await page.reload();
  await page.getByTestId('tab.live').click();
  await removePickerFolder(page, FOLDER.name);
  await page.getByTestId('live.reconnect.handle').click();
  const error = page.getByTestId('live.reconnect.error');
  await expect(error).toContainText('tiny-app is no longer where it was');
  await expect(error).toContainText('journal is kept');
  await expect(page.getByTestId('live.panel')).toHaveCount(0);
  expect(await storedEntries(page, id!)).toEqual(stored);

  // The folder is back where it was: the kept handle reads it again.
  await writePickerFile(page, FOLDER.name, 'README.md', '# tiny-app, restored\n');
  await page.getByTestId('live.reconnect.handle').click();
  await expect(page.getByTestId('live.panel')).toBeVisible({ timeout: 45_000 });
  await live.send('Read it now that the folder is back');
  await expect(live.chat()).toContainText('Read the README again.');
  expect((await toolResults(live)).at(-1)).toContain('# tiny-app, restored');
});
