/**
 * Child processes for the browser sections: `npx` commands in their own process group (so stopping
 * one stops what npx started), waiting for a preview server to answer, and the whole serve / open
 * Chromium / clean up lifecycle of a benchmark site.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '..');

export interface Child {
  process: ChildProcess;
  output: () => string;
}

/** The environment without BASE_PATH: the benchmark site is served at the root. */
export function withoutBasePath(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.BASE_PATH;
  return env;
}

/** Starts `npx <args>` in its own process group, keeping the last 4,000 characters of its output. */
export function start(args: string[], env: NodeJS.ProcessEnv = withoutBasePath()): Child {
  const child = spawn('npx', args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (data: Buffer) => {
    output = (output + data.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { process: child, output: () => output };
}

export function stop(child: Child): void {
  const pid = child.process.pid;
  if (pid === undefined || child.process.exitCode !== null || child.process.signalCode !== null) return;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

export function exited(child: Child): Promise<number> {
  return new Promise((resolveExit, reject) => {
    child.process.once('error', reject);
    child.process.once('close', (code) => resolveExit(code ?? 1));
  });
}

export async function waitForServer(url: string, child: Child, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) throw new Error(`vite preview exited (${child.process.exitCode}):\n${child.output().trim()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`vite preview did not answer at ${url} within ${timeoutMs / 1000} s:\n${child.output().trim()}`);
}

/** The browser for the browser sections (CHROMIUM_PATH, default the system Chromium) and its flags. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
];

/**
 * Serves a built site with `npx <serverArgs>` (a vite preview), opens Chromium once `url` answers,
 * runs `use`, then always closes the browser, stops the server (also on Ctrl-C: it runs in its own
 * process group) and removes `siteDir` unless BENCH_KEEP_SITE=1 (minified JavaScript that
 * `eslint .` would otherwise lint).
 */
export async function withServedSite(serverArgs: string[], url: string, siteDir: string, use: (browser: Browser) => Promise<void>, env?: NodeJS.ProcessEnv): Promise<void> {
  const server = start(serverArgs, env);
  const stopServer = () => stop(server);
  const onSignal = () => {
    stopServer();
    process.exit(130);
  };
  process.once('exit', stopServer);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let browser: Browser | undefined;
  try {
    await waitForServer(url, server, 30_000);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    await use(browser);
  } finally {
    await browser?.close().catch(() => undefined);
    stopServer();
    process.off('exit', stopServer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (process.env.BENCH_KEEP_SITE !== '1') rmSync(siteDir, { recursive: true, force: true });
  }
}
