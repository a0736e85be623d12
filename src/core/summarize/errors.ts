/**
 * Errors in an offline summary: one line each that reads back ("failed, later fixed: …"), grouped
 * so a repeated error is listed once, and bounded per command and overall with a count of what
 * was left out.
 */
import { errorKeys, itemKey } from './extract.ts';

/** A Markdown code span around any text (a longer fence when the text holds backticks). */
export function codeSpan(text: string): string {
  const runs = text.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((run) => run.length)) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** An error, grouped by tool and target: the latest message, and whether a later call fixed it. */
export interface ErrorItem {
  tool: string;
  target?: string;
  message: string;
  resolved: boolean;
  /** Seen in the newest entries (only these can block the work in progress; older ones are history). */
  recent?: boolean;
}

/** Distinct errors listed at most (the newest; fixed ones are left out first). */
export const MAX_ERRORS = 20;
/** Distinct errors listed at most per command or file (the newest). */
export const MAX_ERRORS_PER_TARGET = 5;

/** `Tool `target` failed, later fixed: message` / `… failed, still failing: message` — one line every format uses, so it reads back. */
export function errorText(error: ErrorItem): string {
  return `${error.tool}${error.target ? ` ${codeSpan(error.target)}` : ''} failed, ${error.resolved ? 'later fixed' : 'still failing'}: ${error.message}`;
}

/** `Earlier errors left out: N (…)`: how many older errors a bounded list no longer shows; reads back. */
export function omittedErrorsText(count: number): string {
  return `Earlier errors left out: ${count} (only the newest ${MAX_ERRORS} distinct errors are listed)`;
}

/** A message that says only that something failed (`Command exited with code 1`): it names no error of its own. */
function isGeneric(message: string): boolean {
  const key = itemKey(message);
  return key.length < 8 || /^(?:\(no message\)|(?:command )?(?:failed|aborted|error)|(?:command |process )?exit(?:ed)?(?: with)? (?:code|status)\b.*|command (?:exited|failed)\b.*)$/.test(key);
}

/**
 * Two errors are the same when they say the same thing (the same error line, whichever variant of
 * the command printed it); a generic message (`exit code 1`) is only the same on the same target.
 */
function errorKeyOf(error: Pick<ErrorItem, 'tool' | 'target' | 'message'>): string {
  const message = itemKey(error.message);
  return isGeneric(error.message) ? `${error.tool.toLowerCase()}\u0000${error.target ?? ''}\u0000${message}` : `${error.tool.toLowerCase()}\u0000\u0000${message}`;
}

export function resolvedBy(error: ErrorItem, succeeded: ReadonlySet<string>): boolean {
  return errorKeys(error.tool, error.target).some((key) => succeeded.has(key));
}

/** Distinct errors, oldest first (a repeated error takes the place, target and status of its latest occurrence). */
function groupErrors(errors: readonly ErrorItem[]): ErrorItem[] {
  const grouped = new Map<string, ErrorItem>();
  for (const error of errors) {
    const key = errorKeyOf(error);
    grouped.delete(key);
    grouped.set(key, error);
  }
  return [...grouped.values()];
}

/**
 * Distinct errors bounded: at most MAX_ERRORS_PER_TARGET per command or file and MAX_ERRORS in
 * all, newest kept (past the overall bound fixed errors go before open ones); `omitted` counts
 * what was left out.
 */
export function boundErrors(errors: readonly ErrorItem[]): { errors: ErrorItem[]; omitted: number } {
  const grouped = groupErrors(errors);
  const perTarget = new Map<string, number>();
  const keep = grouped.map(() => true);
  for (let i = grouped.length - 1; i >= 0; i--) {
    const error = grouped[i]!;
    if (error.target === undefined) continue;
    const key = `${error.tool.toLowerCase()}\u0000${error.target}`;
    const count = (perTarget.get(key) ?? 0) + 1;
    perTarget.set(key, count);
    if (count > MAX_ERRORS_PER_TARGET) keep[i] = false;
  }
  const kept = grouped.filter((_, i) => keep[i]);
  while (kept.length > MAX_ERRORS) {
    const fixed = kept.findIndex((error) => error.resolved);
    kept.splice(fixed >= 0 ? fixed : 0, 1);
  }
  return { errors: kept, omitted: grouped.length - kept.length };
}
