/**
 * Entry point of the page. index.html paints a light shell (the header, the empty layout) before
 * any script runs; this small module then loads the app in steps, one main-thread task each, so
 * that no task of the first visit blocks input for long (over 50 ms). Evaluated together, these
 * modules took one task of 55 to 75 ms CPU (more on a loaded machine); apart, no step takes over
 * about 30 ms, and React's first render of the app runs in a task of its own after them.
 *
 * The build preloads every chunk imported here (vite.config.ts, startupPreloads), so the steps
 * wait on no network round trip of their own, and the first-screen budget counts them
 * (scripts/bundle-budgets.ts).
 */
import './ui/app.css';

/**
 * What the first screen loads after the shell, in order, each in its own task. The costly modules
 * come first on their own: a later import finds them evaluated already.
 */
const STARTUP_STEPS: ReadonlyArray<() => Promise<unknown>> = [
  // The page's first Intl.NumberFormat: Chromium loads the locale's ICU data for it (25-35 ms CPU).
  () => import('./ui/common/format.ts'),
  // Dexie (its module body runs when first imported), the schema and the database instance; the
  // database opens later, on the first read.
  () => import('./db/db.ts'),
  // The zustand store: its persisted preferences read localStorage, whose first access loads it.
  () => import('./store/store.ts'),
];

/** Lets the browser run input, rendering and other tasks before the next step. */
function yieldToBrowser(): Promise<void> {
  if (typeof scheduler !== 'undefined' && typeof scheduler.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function start(root: HTMLElement): Promise<void> {
  for (const step of STARTUP_STEPS) {
    await step();
    await yieldToBrowser();
  }
  const { mountApp } = await import('./app-mount.tsx');
  mountApp(root);
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
start(root).catch((error: unknown) => {
  // A chunk that cannot load (offline before the first visit finished, a deploy mid-visit): say so in the shell.
  const message = document.createElement('p');
  message.setAttribute('role', 'alert');
  message.textContent = `Foldlab could not start: ${error instanceof Error ? error.message : String(error)}. Reload the page to try again.`;
  for (const hidden of root.querySelectorAll('[aria-hidden]')) hidden.removeAttribute('aria-hidden');
  // The shell's "Loading…" note is no longer true: the message takes its place.
  root.querySelector('.shell-loading')?.remove();
  (root.querySelector('.main') ?? root).append(message);
  throw error;
});
