/**
 * A Factory Droid subagent session picked or dropped with its caller's session file: the Task call
 * that started it, read from that file before the import (droid-task-call.ts), so the subagent
 * comes in with its type and description as it does on the command line.
 */
import { droidCallerFileName, droidCallerOf, readDroidTaskCall, type DroidTaskCall } from '../core/import/droid-task-call.ts';

/** How much of a file is read for its first line (a `session_start` line is short). */
const FIRST_LINE_BYTES = 64 * 1024;

/**
 * The Task call of `file`'s caller, when `file` is a Droid subagent session and its caller's file is
 * among `siblings` (the files of the same folder, by name); undefined otherwise.
 */
export async function droidTaskCallFor(file: File, siblings: ReadonlyMap<string, File>): Promise<DroidTaskCall | undefined> {
  if (!/\.jsonl$/i.test(file.name)) return undefined;
  const head = await file.slice(0, FIRST_LINE_BYTES).text();
  const newline = head.indexOf('\n');
  const caller = droidCallerOf(newline < 0 ? head : head.slice(0, newline));
  if (caller === undefined) return undefined;
  const name = droidCallerFileName(caller);
  const parent = siblings.get(name);
  return parent === undefined ? undefined : readDroidTaskCall(await parent.text(), name, caller.toolUseId);
}
