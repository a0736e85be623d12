/**
 * Error probes: each failure the agent hit, from tool results, and whether a later run of the same
 * tool on the same target succeeded.
 *
 * Rules:
 * - A result is a failure when the source flags it (`isError`), except a user's refusal or
 *   interruption of the call ("The user doesn't want to proceed with this tool use…", pi's
 *   "Command aborted"), and except a search last in its pipeline (`grep`, `rg`, `diff`) that
 *   exited 1 with no output ("no match"). Results of shell tools are also failures when their
 *   text clearly says so (non-zero exit code, Traceback, `Error:` / `fatal:` at a line start,
 *   `command not found`, `No such file or directory`, `error TS1234`, `N failed`, `FAILED`,
 *   `npm error`, `command failed`),
 *   unless every program of the command only reads or searches (cat, head, grep, git…): their
 *   output is data, and only an exit code counts. Other tools' text is never read for this.
 * - Resolved when a later call of the same tool family on the same target succeeded: same file
 *   path, or same command with whitespace collapsed and the project root stripped from absolute
 *   paths (so `pytest test/x.py` is resolved by `pytest /repo/test/x.py`). `resolvedAt` is the
 *   index of that success's result entry. Trailing output filters (`| tail -3`, `| grep "error
 *   TS"`, `2>&1`) are not part of the command: they change what is shown, not what ran. The
 *   directory is compared whatever its spelling, and a type check or build that passes in a
 *   parent directory resolves one that failed in a subdirectory (see `resolvingKeys`).
 * - A failure identical to one still open (same target, same error line) adds no probe.
 * - Needles: the error's distinctive words (see `errorKeys`) plus the target's most salient word
 *   (a file's basename, or the command's), as one group; when the error has two distinctive words,
 *   those alone are a second alternative (the target sits in the call, maybe far from the output).
 */
import type { CallRecord } from './calls.ts';
import { makeProbe } from './make.ts';
import { contentNeedles, normalizeForMatch } from './normalize.ts';
import { isRefusal } from './sources.ts';
import { programs } from './shell.ts';
import { failedTarget, resolvingKeys, shellTargets, successKeys } from '../reading/targets.ts';
import { callLabel, callTarget, inputObject, inputPath, shellScript, toolFamily } from './tools.ts';
import type { Probe } from './types.ts';

const EXIT_SIGNALS: RegExp[] = [/\bexit(?:ed)?(?: with)?[ _](?:code|status)["']?\s*[:=]?\s*[1-9]\d*/i, /"exit_code"\s*:\s*[1-9]/];

const FAILURE_SIGNALS: RegExp[] = [
  ...EXIT_SIGNALS,
  /Traceback \(most recent call last\)/,
  /^(?:Error|ERROR|fatal|FATAL|panic)(?:\b|:)/m,
  /command not found/,
  /No such file or directory/,
  /\berror TS\d+/,
  /\b[1-9]\d* (?:failed|failing|errors?)\b/,
  /^FAILED\b/m,
  /npm ERR!/,
  /^npm error\b/m,
  /\bcommand failed\b/i,
];

const TOOL_ERROR = /^\s*(?:error|ERROR|Error)(?:\s*:|\s+-\s)/;

/** Whether a result reports a failure (see the module comment). */
export function isFailure(record: CallRecord): boolean {
  const result = record.result;
  if (!result) return false;
  if (isRefusal(result.text)) return false;
  const family = toolFamily(record.call.name);
  // A function tool that answers "Error: …" failed, flagged or not (many APIs report errors as text).
  if (family !== 'shell') return result.isError || (family === 'other' && TOOL_ERROR.test(result.text.slice(0, 300)));
  const script = shellScript(inputObject(record.call.input)) ?? '';
  const run = programs(script);
  if (isNoMatch(run, result.text)) return false;
  if (result.isError) return true;
  // Output of commands that only read or search is file content: only an exit code counts.
  const signals = run.length > 0 && run.every((program) => READ_ONLY.has(program)) ? EXIT_SIGNALS : FAILURE_SIGNALS;
  return signals.some((signal) => signal.test(result.text));
}

/** Commands whose output is data (file content, search hits), not a report on their own success. */
const READ_ONLY = new Set(['cat', 'head', 'tail', 'sed', 'nl', 'less', 'more', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ls', 'find', 'fd', 'tree', 'wc', 'echo', 'printf', 'cd', 'pwd', 'jq', 'sort', 'uniq', 'cut', 'awk', 'diff', 'file', 'stat', 'which']);

/** A search (`grep`, `rg`, `diff`…) last in its pipeline that exited 1 with no output: "no match", not a failure. */
function isNoMatch(run: readonly string[], text: string): boolean {
  const last = run[run.length - 1];
  if (last === undefined || !['grep', 'egrep', 'fgrep', 'rg', 'ag', 'diff', 'test', '['].includes(last)) return false;
  return /^\s*(?:\(no output\)\s*)?(?:command exited with code 1|exit code:? 1|process exited with code 1)?\.?\s*$/i.test(text);
}

/** `failed`: `isFailure(record)`, worked out once per call by the caller. */
function isSuccess(record: CallRecord, failed: boolean): boolean {
  return record.result !== undefined && !isRefusal(record.result.text) && !failed;
}

const EXCEPTION = /^(?:E\s+)?(?:[\w.]+\.)?([A-Z]\w*(?:Error|Exception))\b:?\s*(.*)$/;
const EXCEPTION_ANYWHERE = /\b([A-Z]\w*(?:Error|Exception))\b:?\s*(.*)$/;

/**
 * The line of a failure text that names the error best: an exception line (the last one: Python
 * prints it last), else the first `FAILED` / `error TS…` line, else the first `Error:` / `fatal:`
 * line, else the first "not found" / "N failed" line, else the last line mentioning an error or,
 * failing that, the last line (summaries come last). Separator runs (`=====`) are trimmed off.
 * With `firstLine` (results of non-shell tools, whose message comes first), the first line.
 */
export function errorLine(text: string, firstLine = false): string {
  if (firstLine) {
    const first = text.replace(/<\/?tool_use_error>/g, '').split('\n').find((line) => line.trim().length > 0);
    return (first ?? '').trim().slice(0, 300);
  }
  let best = '';
  let bestScore = -1;
  const lines = text.replace(/<\/?tool_use_error>/g, '').split('\n');
  for (const raw of lines.slice(0, 2000)) {
    const line = raw.trim().slice(0, 300).replace(/^[=_~*#\s-]{3,}|[=_~*#\s-]{3,}$/g, '').trim();
    if (line.length === 0 || /^exit code\b|^wall time\b|^output:$/i.test(line)) continue;
    const score = scoreLine(line);
    const lastWins = score === 5 || score <= 1;
    if (score > bestScore || (score === bestScore && lastWins)) {
      best = line;
      bestScore = score;
    }
  }
  return best;
}

function scoreLine(line: string): number {
  if (EXCEPTION.test(line)) return 5;
  if (/^FAILED\b|\berror TS\d+|\berror\[E\d+\]/.test(line)) return 4;
  if (/^(?:E\s+)?(?:Error|ERROR|error|fatal|FATAL|panic|npm ERR!|npm error)\b/.test(line)) return 3;
  if (/command not found|No such file or directory|Permission denied|not found|[1-9]\d* failed|no tests (?:ran|collected)/i.test(line)) return 2;
  if (/error|fail/i.test(line)) return 1;
  return 0;
}

/** Well-known failure phrases, kept whole as a needle (their words alone say little). */
const PHRASES = ['no such file or directory', 'command not found', 'permission denied', 'ambiguous argument', 'no tests collected', 'no tests ran', 'module not found', 'cannot find module', 'not found', 'timed out', 'out of memory', 'segmentation fault', 'connection refused', 'already in use'];

/**
 * The distinctive words of an error line: the exception name (or error code, or known phrase)
 * plus its most salient identifier (or a word of 8+ characters), else its two most salient words. Paths count by their
 * basename, source locations (`file.py:12`, `cd:1`) and the target's own word are left out.
 */
function errorKeys(line: string, targetWord: string | undefined): string[] {
  const tokens = line
    .replace(/::/g, ' ')
    .split(/\s+/)
    .map((token) => (token.includes('/') ? (token.split('/').pop() ?? token) : token).replace(/:\d+(?::\d+)*:?$/, ''))
    .filter((token) => !token.startsWith('(eval)') && !/^[\d.,:]+(?:s|ms|%)?$/.test(token));
  const words = contentNeedles(normalizeForMatch(tokens.join(' ')), 6).filter((word) => word !== targetWord && !/^[\d.]+\w{0,2}$/.test(word));
  const exception = EXCEPTION_ANYWHERE.exec(line);
  const code = /\b(TS\d{3,5}|E\d{3,4}|ENOENT|EACCES|EADDRINUSE|ECONNREFUSED)\b/.exec(line);
  const phrase = PHRASES.find((candidate) => line.toLowerCase().includes(candidate));
  const failed = /^FAILED\b/.test(line) ? 'fail' : undefined;
  const head = exception ? normalizeForMatch(exception[1]!) : code ? normalizeForMatch(code[1]!) : (phrase ?? failed);
  if (head !== undefined) {
    const fresh = words.filter((word) => !word.includes(head) && !head.includes(word));
    const detail = fresh.find((word) => /[._\d]/.test(word)) ?? fresh.find((word) => word.length >= 8);
    return detail ? [head, detail] : [head];
  }
  return words.slice(0, 2);
}

/** The most salient word of a call's target: a file's basename, else the command's best word. */
function targetKey(record: CallRecord): string | undefined {
  const input = inputObject(record.call.input);
  const path = inputPath(input);
  if (path) return normalizeForMatch(path.split('/').pop() ?? path);
  const script = toolFamily(record.call.name) === 'shell' ? shellScript(input) : undefined;
  if (!script) return undefined;
  // Paths count by their basename: a summary rarely repeats an absolute path.
  const words = script.slice(0, 2000).split(/\s+/).map((word) => (word.includes('/') ? (word.split('/').pop() ?? word) : word));
  return contentNeedles(normalizeForMatch(words.join(' ')), 1)[0];
}

/** Error probes of the calls (see the module comment), in entry order. */
export function errorProbes(calls: readonly CallRecord[], root: string | undefined): Probe[] {
  // A function tool without a file names its target by its name: a later successful call of it resolves.
  const targets = calls.map((record) => callTarget(record.call, root) ?? `tool:${record.call.name.toLowerCase()}`);
  // Paths under the root lose it; the root itself (`cd /repo && …`) is the current directory.
  const rootItself = root ? new RegExp(`${root.slice(0, -1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.-])`, 'g') : undefined;
  const relative = (text: string): string => (root && rootItself ? text.split(root).join('').replace(rootItself, '.') : text);
  const successes = new Map<string, number[]>();
  const idAt = new Map<number, string>();
  const add = (key: string, index: number): void => {
    const list = successes.get(key) ?? [];
    list.push(index);
    successes.set(key, list);
  };
  // Whether each call failed: asked once per call, for the successes and for the errors below.
  const failed = calls.map((record) => isFailure(record));
  calls.forEach((record, position) => {
    if (!isSuccess(record, failed[position]!)) return;
    idAt.set(record.result!.index, record.result!.entry.id);
    add(targets[position]!, record.result!.index);
    const script = toolFamily(record.call.name) === 'shell' ? shellScript(inputObject(record.call.input)) : undefined;
    if (script !== undefined) for (const key of new Set(shellTargets(relative(script)).flatMap(successKeys))) add(`loose:${key}`, record.result!.index);
  });
  const probes: Probe[] = [];
  const open: Array<{ line: string; probe: Probe }> = [];
  calls.forEach((record, position) => {
    const result = record.result;
    if (!result || !failed[position]) return;
    const target = targets[position]!;
    const line = errorLine(result.text, toolFamily(record.call.name) !== 'shell') || 'failed';
    // The same error line (and failure count) as one still open is the same error, whatever command showed it again.
    const identity = `${normalizeForMatch(line)}\u0000${/\b\d+ (?:failed|errors?)\b/.exec(result.text)?.[0] ?? ''}`;
    if (open.some((error) => error.line === identity && (error.probe.resolvedAt === undefined || error.probe.resolvedAt > result.index))) return;
    const targetWord = targetKey(record);
    const keys = errorKeys(line, targetWord);
    const generic = keys.length === 0 || /exited with code|exit (?:code|status)|^failed$/i.test(line);
    // Two distinctive words name the error on their own (the target may sit far away, in the call).
    const needles = !generic
      ? [[...keys, ...(targetWord && !keys.includes(targetWord) ? [targetWord] : [])], ...(keys.length >= 2 ? [keys] : [])]
      : targetWord
        ? [[targetWord, 'error'], [targetWord, 'fail'], [targetWord, 'exit']]
        : [];
    const script = toolFamily(record.call.name) === 'shell' ? shellScript(inputObject(record.call.input)) : undefined;
    const loose = script === undefined ? undefined : failedTarget(relative(script), result.text);
    const later = (key: string | undefined): number | undefined => (key === undefined ? undefined : (successes.get(key) ?? []).find((index) => index > result.index));
    const candidates = [later(target), ...(loose === undefined ? [] : resolvingKeys(loose).map((key) => later(`loose:${key}`)))].filter((index): index is number => index !== undefined);
    const resolvedAt = candidates.length > 0 ? Math.min(...candidates) : undefined;
    const probe = makeProbe('error', resolvedAt === undefined ? 'open' : 'resolved', `${callLabel(record.call)} → ${line}`, { entry: result.entry, index: result.index }, needles);
    if (resolvedAt !== undefined) {
      probe.resolvedAt = resolvedAt;
      probe.resolvedBy = idAt.get(resolvedAt)!;
    }
    open.push({ line: identity, probe });
    if (open.length > 50) open.shift();
    probes.push(probe);
  });
  return probes;
}
