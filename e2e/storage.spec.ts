/**
 * Storage faults in the real browser: a real quota limit (Chromium's `Storage.overrideQuotaForOrigin`
 * over CDP) under a 5 MB import, persistent storage asked for from the page at the first import,
 * and a renderer crash (CDP `Page.crash`) while the worker stores a large import.
 */
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSession } from '../src/core/demo/generate-session.ts';
import { AppPage, expect, sample, test } from './fixtures/app.ts';

interface Library {
  conversations: Array<{ id: string; fileName: string; entryCount: number }>;
  /** Entry rows per conversation id (orphans included). */
  entries: Record<string, number>;
}

/** The library as IndexedDB holds it, read with a connection of its own (closed at once). */
function readLibrary(page: Page): Promise<Library> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('foldlab');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const all = <T,>(store: string) =>
      new Promise<T[]>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result as T[]);
        request.onerror = () => reject(request.error);
      });
    const conversations = (await all<{ id: string; fileName: string; entryCount: number }>('conversations')).map(({ id, fileName, entryCount }) => ({ id, fileName, entryCount }));
    const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
      const request = db.transaction('entries').objectStore('entries').getAllKeys();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    const entries: Record<string, number> = {};
    for (const key of keys) {
      const id = String((key as [string, number])[0]);
      entries[id] = (entries[id] ?? 0) + 1;
    }
    return { conversations, entries };
  });
}

/** The page's store as the test API shows it: the running jobs with their progress. */
type StoreView = { __foldlab: { state: () => { jobs: Record<string, { progress?: { phase: string; done: number; total: number } }> } } };

/** Every conversation holds exactly its entries, and no entry belongs to a conversation that is not there. */
function expectWhole(library: Library): void {
  for (const conversation of library.conversations) expect(library.entries[conversation.id] ?? 0, conversation.fileName).toBe(conversation.entryCount);
  const ids = new Set(library.conversations.map((c) => c.id));
  expect(Object.keys(library.entries).filter((id) => !ids.has(id))).toEqual([]);
}

/** A generated coding-agent session of about `mb` megabytes (Claude Code JSONL). */
function sessionFile(path: string, mb: number): string {
  writeFileSync(path, generateSession({ iterations: Math.ceil((mb * 1024 * 1024) / 5500), seed: 7 }));
  return path;
}

/**
 * About `mb` megabytes of Claude Code JSONL whose messages (about 100 KB each) are random digits (a
 * numeric log pasted into the chat). Chromium compresses large values before storing them and
 * counts the compressed size against the quota: generated session text shrinks more than tenfold
 * and fitted in the room left, random digits only about fourfold (5 MB needs about 1.2 MB). Digits
 * also count quickly (short pieces), where random base64 takes minutes on a loaded machine.
 */
function incompressibleSessionFile(path: string, mb: number): string {
  const lines: string[] = [];
  let parent: string | null = null;
  let seed = 7;
  const digits = new Array<string>(100_000);
  for (let i = 0; i * 100_000 < mb * 1024 * 1024; i++) {
    for (let k = 0; k < digits.length; k++) {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      digits[k] = String((seed >>> 8) % 10);
    }
    const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const body = `Sensor log ${i}: ${digits.join('')}`;
    const message = role === 'user' ? { role, content: body } : { role, content: [{ type: 'text', text: body }] };
    lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, type: role, message, uuid, timestamp: new Date(1_770_000_000_000 + i * 1000).toISOString(), sessionId: 'quota' }));
    parent = uuid;
  }
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** A Chromium of its own on a profile on disk (quota applies there, not to in-memory profiles); no service worker, so the usage is the library's alone. */
function launchProfile(dir: string, baseURL: string | undefined): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    serviceWorkers: 'block',
    ...(baseURL ? { baseURL } : {}),
  });
}

test('a real quota limit: a 5 MB import fails as storage full, stores nothing, and a small import still works', async ({ baseURL }, testInfo) => {
  test.setTimeout(240_000);
  const profile = mkdtempSync(join(tmpdir(), 'foldlab-quota-'));
  const big = incompressibleSessionFile(testInfo.outputPath('five-mb-session.jsonl'), 5);
  // First run of the profile: the demo is seeded, then the browser is closed with its usage known.
  const seeding = await launchProfile(profile, baseURL);
  let before: Library;
  let usage: number;
  try {
    const page = seeding.pages()[0] ?? (await seeding.newPage());
    const app = new AppPage(page);
    await app.open();
    await app.waitForDemo();
    before = await readLibrary(page);
    usage = (await page.evaluate(() => navigator.storage.estimate())).usage ?? 0;
  } finally {
    await seeding.close();
  }

  // IndexedDB keeps the space the quota manager last granted for up to 30 s and approves writes
  // from it without asking again, so an override set after the demo's writes could be ignored by
  // the next commit. A new browser has nothing kept: the override is set before its first write.
  const context = await launchProfile(profile, baseURL);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    const origin = new URL(baseURL ?? 'http://127.0.0.1/').origin;
    // Room for a small import (a few KB), not for 5 MB of entries (about 1.2 MB once compressed).
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 256 * 1024 });
    const app = new AppPage(page);
    await app.open();
    await expect(app.libraryItems()).toHaveCount(before.conversations.length);

    await page.getByTestId('import.input').setInputFiles(big);
    // Reading and counting 5 MB come first: the write that hits the quota is the last step.
    await expect(page.getByTestId('import.notice.error')).toBeVisible({ timeout: 120_000 });
    const error = (await page.getByTestId('import.notice.error').textContent()) ?? '';
    expect(error).toMatch(/storage is full/i);
    expect(error).toContain('five-mb-session.jsonl');
    await expect(page.getByTestId('storage.usage')).toContainText(/This site uses [\d.]+ MB of [\d.]+ MB \(\d+%\)/);
    expect(await readLibrary(page)).toEqual(before);

    // The ways out it offers: the library backup, then the library's delete actions, get the focus.
    await page.getByTestId('storage.export').click();
    await expect(page.getByTestId('library.backup')).toBeFocused();
    await page.getByTestId('storage.cleanup').click();
    await expect(page.getByTestId('library.item.delete').first()).toBeFocused();

    // The app is still usable: a small import fits.
    await app.importFile(sample('pi/v3-small.jsonl'));
    const after = await readLibrary(page);
    expect(after.conversations.map((c) => c.fileName).sort()).toEqual([...before.conversations.map((c) => c.fileName), 'v3-small.jsonl'].sort());
    expectWhole(after);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('persistent storage is asked for from the page at the first import, after saying why; the answer is remembered', async ({ page }) => {
  await page.addInitScript(() => {
    const original = StorageManager.prototype.persist;
    const calls: string[] = [];
    (window as unknown as { persistCalls: string[] }).persistCalls = calls;
    StorageManager.prototype.persist = function persist(this: StorageManager) {
      // What the page said at the moment it asked.
      calls.push(document.querySelector('[data-testid="storage.persistence"]')?.textContent ?? '');
      return original.call(this);
    };
  });
  await page.goto('./');
  await new AppPage(page).waitForDemo();
  const line = page.getByTestId('storage.persistence');
  // Before any import (the first-visit demo is not one the user made): the reason, nothing asked yet.
  await expect(line).toHaveAttribute('data-state', 'not-asked');
  await expect(line).toContainText('may clear them when disk space runs low');
  const calls = () => page.evaluate(() => (window as unknown as { persistCalls: string[] }).persistCalls);
  expect(await calls()).toEqual([]);

  await page.getByTestId('import.input').setInputFiles(sample('pi/v3-small.jsonl'));
  await expect(line).toHaveAttribute('data-state', /granted|denied/);
  const asked = await calls();
  expect(asked).toHaveLength(1);
  expect(asked[0]).toContain('may clear them when disk space runs low');
  const answer = await line.getAttribute('data-state');

  await page.getByTestId('import.input').setInputFiles(sample('claude-code/dag_compact_after_rewind.jsonl'));
  await expect(page.getByTestId('conversation.meta')).toContainText('dag_compact_after_rewind.jsonl', { timeout: 30_000 });
  expect(await calls()).toHaveLength(1);
  await page.reload();
  await expect(line).toHaveAttribute('data-state', answer!);
  expect(await calls()).toEqual([]);
});

test('a renderer crash while the worker stores a large import leaves no partial conversation', async ({ app, page, context }, testInfo) => {
  test.setTimeout(120_000);
  await app.waitForDemo();
  const big = sessionFile(testInfo.outputPath('crash-session.jsonl'), 25);
  const before = await readLibrary(page);
  await page.getByTestId('import.input').setInputFiles(big);
  // Crash the renderer (and the worker in it) while the import's transaction is writing: any
  // moment of the saving phase before its last batch (the save is one transaction, so a crash
  // after some batches must leave nothing either). Waiting for exactly `done === 0` could miss
  // that short moment on a loaded machine and never see it again.
  await expect
    .poll(() => page.evaluate(() => Object.values((window as unknown as StoreView).__foldlab.state().jobs).some((job) => job.progress?.phase === 'saving' && job.progress.done < job.progress.total)), { intervals: [20], timeout: 90_000 })
    .toBe(true);
  const cdp = await context.newCDPSession(page);
  const crashed = page.waitForEvent('crash');
  void cdp.send('Page.crash').catch(() => undefined);
  await crashed;

  const next = await context.newPage();
  const errors: string[] = [];
  next.on('pageerror', (error) => errors.push(error.message));
  await next.goto('./');
  await expect(next.getByTestId('library.list')).toBeVisible();
  const after = await readLibrary(next);
  expect(after.conversations.map((c) => c.fileName)).not.toContain('crash-session.jsonl');
  expect(after.conversations.length).toBe(before.conversations.length);
  expectWhole(after);
  expect(errors).toEqual([]);
  await expect(next.getByTestId('import.notice')).toHaveCount(0);
});
