/**
 * What a session's source says about it as a whole, as the page's conversation header and
 * `cli inspect` show it: the working directory, the git branch, when it started, the model and the
 * agent's version. One function makes the shown values, so the page and the terminal never differ.
 */
import type { SessionMeta } from './types.ts';

/** The facts shown, in this order. */
export const SESSION_FACT_KEYS = ['cwd', 'branch', 'created', 'model', 'version'] as const;

export type SessionFactKey = (typeof SESSION_FACT_KEYS)[number];

/** The shown value of each fact the source recorded (keys in `SESSION_FACT_KEYS` order). */
export type SessionFacts = Partial<Record<SessionFactKey, string>>;

/** The facts of a session, each as shown; a fact the source did not record is absent. */
export function sessionFacts(meta: SessionMeta): SessionFacts {
  const values: Record<SessionFactKey, string | undefined> = {
    cwd: meta.cwd,
    branch: meta.gitBranch,
    created: meta.createdAt === undefined ? undefined : formatCreated(meta.createdAt),
    model: meta.model,
    version: meta.version,
  };
  const facts: SessionFacts = {};
  for (const key of SESSION_FACT_KEYS) {
    const value = values[key];
    if (value !== undefined && value !== '') facts[key] = value;
  }
  return facts;
}

/** The facts on one line, `cwd /work · branch master · created 2026-08-05 20:40:13 UTC`; empty when none. */
export function sessionFactsText(facts: SessionFacts): string {
  return SESSION_FACT_KEYS.flatMap((key) => (facts[key] === undefined ? [] : [`${key} ${facts[key]}`])).join(' · ');
}

/** A start time in UTC to the second, so the page and the terminal show the same text wherever they run. */
export function formatCreated(epochMs: number): string {
  const date = new Date(epochMs);
  if (Number.isNaN(date.getTime())) return String(epochMs);
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
