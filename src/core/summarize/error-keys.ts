/**
 * How the offline summarizer names an error and tells whether a later call fixed it: the telling
 * line of an error text, and the keys a failure and a success share (the same command modulo
 * output filters and paths, the same command target whatever its flags (one rule with the
 * retention probes), the same tool on the same file).
 */
import { isShellTool } from '../compaction/tool-actions.ts';
import { failedTarget, resolvingKeys, shellTargets, successKeys } from '../reading/targets.ts';
import { clipHead, clipLine } from './clip.ts';
import { MAX_SCRIPT_CHARS, withoutOutputFilters } from './shell.ts';

/** Longest error message line kept, characters (cut at a word boundary). */
export const MAX_ERROR_CHARS = 160;
/** Longest command kept, characters (long scripts keep their start and end). */
export const MAX_COMMAND_CHARS = 120;
/** Longest path kept in an error target, characters. */
export const MAX_PATH_CHARS = 300;

const ERROR_HINT = /(error|failed|failure|exception|traceback|not found|no such|denied|refused|rejected|invalid|cannot|can't|unable|fatal|panic|timed out|timeout)/i;

/** A line naming an exception (`TypeError: …`, `E   AssertionError`, `pkg.mod.ValidationError: …`). */
const EXCEPTION_LINE = /^(?:E\s+)?(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)\b/;
/** A compiler / test runner's own error line (`a.ts(3,1): error TS2345`, `FAILED test_x`, `error[E0308]`). */
const CODE_LINE = /^FAILED\b|\berror TS\d+|\berror\[E\d+\]|^\S+:\d+:\d+: error\b/;
/** A line that starts by saying it is an error (`Error: …`, `fatal: …`, `npm error …`). */
const ERROR_START = /^(?:E\s+)?(?:Error|ERROR|error|fatal|FATAL|panic|npm ERR!|npm error)\b/;
/** A line naming a well-known failure (`No such file or directory`, `command not found`, `3 failed`). */
const FAILURE_PHRASE = /command not found|no such file or directory|permission denied|not found|ambiguous argument|[1-9]\d* (?:failed|errors?)\b|no tests (?:ran|collected)|timed out/i;
/** Lines scanned for the error line at most (the verdict of a long log is near its start or end). */
const MAX_ERROR_SCAN_LINES = 4000;

function lineScore(line: string): number {
  if (EXCEPTION_LINE.test(line)) return 5;
  if (CODE_LINE.test(line)) return 4;
  if (ERROR_START.test(line)) return 3;
  if (FAILURE_PHRASE.test(line)) return 2;
  return ERROR_HINT.test(line) ? 1 : 0;
}

/**
 * The line of an error text that names the error: the last exception line (Python prints it
 * last), else the first compiler / test error line (`error TS2345`, `FAILED`), else the first line
 * starting with `Error:` / `fatal:`, else the first line naming a known failure (`No such file or
 * directory`), else the last line mentioning an error; with none of these, the first line unless it
 * is a banner (`=== test session starts ===`), then the last line (tools print their verdict last).
 * Clipped at a word boundary to MAX_ERROR_CHARS.
 */
export function errorLine(text: string): string {
  const lines: string[] = [];
  let from = 0;
  const source = text.length > 200_000 ? `${text.slice(0, 100_000)}\n${text.slice(-100_000)}` : text;
  while (from <= source.length && lines.length < MAX_ERROR_SCAN_LINES) {
    const end = source.indexOf('\n', from);
    const line = source.slice(from, end < 0 ? source.length : end).replace(/<\/?tool_use_error>/g, '').trim();
    if (line.length > 0) lines.push(line.length > 2000 ? line.slice(0, 2000) : line);
    if (end < 0) break;
    from = end + 1;
  }
  const first = lines[0];
  if (first === undefined) return '(no message)';
  let best: string | undefined;
  let bestScore = 0;
  for (const line of lines) {
    if (/^exit code\b|^wall time\b|^output:$/i.test(line)) continue;
    const score = lineScore(line);
    // Exceptions and vague mentions: the last wins; named errors: the first.
    if (score > bestScore || (score === bestScore && score > 0 && (score === 5 || score === 1))) {
      best = line;
      bestScore = score;
    }
  }
  const chosen = best ?? (/^[=*#~_-]{3,}/.test(first) ? (lines[lines.length - 1] ?? first) : first);
  // Separator runs around a verdict (`===== 3 failed in 0.4s =====`) say nothing.
  return clipHead(chosen.replace(/^[=_~*#-]{3,}\s*|\s*[=_~*#-]{3,}$/g, '') || chosen, MAX_ERROR_CHARS);
}

/**
 * Key of a command line: whitespace collapsed, output filters dropped (`2>&1 | tail -5`, see
 * withoutOutputFilters) and each path argument reduced to its last part, so `ruff check src/a.py`
 * and `ruff check /repo/src/a.py | tail` are the same run on the same target.
 */
export function commandKey(command: string): string {
  const words = withoutOutputFilters(command.length > MAX_SCRIPT_CHARS ? command.slice(0, MAX_SCRIPT_CHARS) : command).split(' ')
    .map((word) => (/^[^-'"=$][^'"]*\/[^'"/]/.test(word) && !/^\w+:\/\//.test(word) ? word.replace(/\/+$/, '').replace(/^.*\//, '') : word));
  return `cmd\u0000${clipLine(words.join(' '), MAX_COMMAND_CHARS)}`;
}

/** Keys a later success must have to fix an error of `tool` on `target` (a file path, or a command). */
export function errorKeys(tool: string, target: string | undefined): string[] {
  if (!target) return tool === 'API' ? ['api\u0000'] : [];
  // A file path is no command: only a shell tool's target has a command target.
  const command = isShellTool(tool) ? failureTargetKeys(target, '') : [];
  return [commandKey(target), `${tool.toLowerCase()}\u0000${target}`, ...command];
}

/**
 * Keys of what a failed command failed on (the retention probes' rule, see reading/targets.ts: the
 * program with its subcommand and the operands naming what it acts on, in the directory it `cd`-ed
 * to, whatever that directory's spelling; other flags and output filters left out; a type check or
 * build also under its parent directories, whose passing check covers it), so a later success on
 * it fixes the failure.
 */
export function failureTargetKeys(command: string, output: string): string[] {
  const target = failedTarget(command, output);
  return target === undefined ? [] : resolvingKeys(target).map((key) => `target\u0000${key}`);
}

/** Keys of everything a successful command worked on (each of its commands' targets, each spelling of its directory). */
export function successTargetKeys(command: string): string[] {
  return [...new Set(shellTargets(command).flatMap(successKeys))].map((target) => `target\u0000${target}`);
}
