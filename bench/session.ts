/**
 * The ~13 MB generated Claude Code session that the token and browser sections share: generated
 * once per run (deterministic, seed 1) and written to bench/out when a file is needed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateSession } from '../src/core/demo/generate-session.ts';

/** Size of the shared session. Default 13,000,000. Unit: bytes (approximate; the generator stops after it). */
export const SESSION_BYTES = 13_000_000;

/** Where generated files go (git-ignored). */
export const OUT_DIR = resolve(import.meta.dirname, 'out');

let cached: string | undefined;

/** The session as JSONL text. */
export function sessionText(): string {
  cached ??= generateSession({ targetBytes: SESSION_BYTES });
  return cached;
}

/** Writes the session to bench/out/session-13mb.jsonl and returns the path. */
export function sessionFile(): string {
  mkdirSync(OUT_DIR, { recursive: true });
  const path = resolve(OUT_DIR, 'session-13mb.jsonl');
  writeFileSync(path, sessionText());
  return path;
}

/** Drops the cached text so a later section's memory figures do not include it. */
export function releaseSession(): void {
  cached = undefined;
}
