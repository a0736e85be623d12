/**
 * The set-up shared by the bench's browser sections: a production build of the app into its own
 * folder, a preview server with Chromium on one page (probes installed before the page's scripts),
 * and the page-side recorder of main-thread long tasks that each section drains per window.
 */
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, exited, start, withoutBasePath, withServedSite } from './processes.ts';

/** One main-thread long task as the page's long-task API reported it (ms on the page's clock). */
export interface LongTask {
  start: number;
  duration: number;
}

/** What `installLongTaskProbe` keeps on `window`. */
export interface LongTaskWindow {
  __longTasks: LongTask[];
}

/** Runs in the page before its scripts: records every long task. Self-contained, as it is serialized into the page. */
export function installLongTaskProbe(): void {
  const w = window as unknown as LongTaskWindow;
  w.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

/** Takes the long tasks recorded since the last drain. */
export function drainLongTasks(page: Page): Promise<LongTask[]> {
  return page.evaluate(() => {
    const w = window as unknown as LongTaskWindow;
    const tasks = w.__longTasks;
    w.__longTasks = [];
    return tasks;
  });
}

/** Builds the app (no base path) into `siteDir`; returns the build's wall time in ms. */
export async function buildSite(siteDir: string): Promise<number> {
  const started = performance.now();
  const child = start(['vite', 'build', '--outDir', siteDir, '--emptyOutDir'], withoutBasePath());
  const code = await exited(child);
  if (code !== 0) throw new Error(`vite build failed (exit ${code}):\n${child.output().trim().split('\n').slice(-15).join('\n')}`);
  return performance.now() - started;
}

/** True (and says the section is skipped) when no Chromium is found. */
export function chromiumMissing(): boolean {
  if (existsSync(CHROMIUM)) return false;
  console.log(`  skipped: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH to run this section).`);
  return true;
}

/**
 * Serves `siteDir` with `vite preview` on `port`, opens one 1280x800 page with `install` run before
 * its scripts, and hands the browser and the page to `use`. The context is closed, the server
 * stopped and the site removed afterwards, even on failure.
 */
export async function withProbedPage(siteDir: string, port: number, install: () => void, use: (browser: Browser, page: Page) => Promise<void>): Promise<void> {
  await withServedSite(['vite', 'preview', '--outDir', siteDir, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], `http://127.0.0.1:${port}/`, siteDir, async (browser) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.addInitScript(install);
      await use(browser, page);
    } finally {
      await context.close();
    }
  }, withoutBasePath());
}
