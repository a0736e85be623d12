/**
 * A generator of agent sessions for replay tests: turns of a user request, assistant calls with
 * tool results, and a final answer, with timestamps a chosen number of seconds apart. Pure.
 */
import { linkEntries, makeEntries, type Spec } from '../compaction/testing.ts';
import type { Entry } from '../journal/entry.ts';

export interface TurnShape {
  /** Tool calls before the final answer. */
  tools: number;
  /** Characters of each tool result. */
  resultChars: number;
  /** Seconds of idle time before the turn's user message. */
  idleBefore?: number;
}

/** A deterministic filler of `n` characters made of words (so counters and probes see real text). */
export function filler(n: number, seed: number): string {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'parser', 'config', 'render', 'module', 'value', 'index'];
  let out = '';
  let i = seed;
  while (out.length < n) out += `${words[i++ % words.length]} `;
  return out.slice(0, n);
}

export function agentSession(turns: readonly TurnShape[], system = 'You are a coding agent.'): Entry[] {
  const specs: Spec[] = [{ system }];
  const gaps: number[] = [0];
  let call = 0;
  turns.forEach((turn, t) => {
    specs.push({ user: `Task ${t}: update src/module${t}.ts so the parser handles case ${t}.` });
    gaps.push(turn.idleBefore ?? 5);
    for (let k = 0; k < turn.tools; k++) {
      const id = `c${call++}`;
      specs.push({ assistant: `Reading the file for step ${k}.`, calls: [{ id, name: 'Read', input: { file_path: `/repo/src/module${t}-${k}.ts` } }] });
      gaps.push(3);
      specs.push({ tool: filler(turn.resultChars, t + k), callId: id, name: 'Read' });
      gaps.push(1);
    }
    specs.push({ assistant: `Done with task ${t}.` });
    gaps.push(4);
  });
  const entries = linkEntries(makeEntries(specs));
  let at = 1_700_000_000_000;
  entries.forEach((entry, i) => {
    at += (gaps[i] ?? 1) * 1000;
    entry.timestamp = at;
  });
  return entries;
}
