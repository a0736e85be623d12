/**
 * A tool call the user refused or interrupted, read from its result: Claude Code's rejection
 * (with the reason the user typed, "To tell you how to proceed, the user said: …"), a permission
 * denial, an interruption for tool use, Codex's "rejected by user", pi's "Command aborted". A
 * refusal is the user's choice, never an error the agent hit; its reason is the user steering.
 */

/** Longest refusal reason kept, characters (a reason is a sentence or two the user typed). */
export const MAX_REASON_CHARS = 1000;

export interface Refusal {
  /** What the user typed when refusing, trimmed; absent when they gave no reason. */
  reason?: string;
}

const REFUSAL_START = [
  /^The user doesn['’]t want to proceed with this tool use/,
  /^The user doesn['’]t want to take this action right now/,
  /^\[Request interrupted by user for tool use\]/,
  /^Permission to use \S+ (?:with .{0,300} )?has been denied/,
  /^(?:The )?user (?:rejected|denied|declined)\b/i,
  /^Tool use was rejected\b/,
  /^(?:exec command|patch|command) rejected by (?:the )?user\b/i,
  // pi's bash tool when the user pressed Esc while the command ran.
  /^Command aborted\b/,
  /^aborted by user\b/i,
];

/** Where the user's own words start in a Claude Code rejection. */
const REASON_AFTER = /\bthe user said:\s*/i;

/** The refusal a tool result states, or undefined when it is not one. */
export function readRefusal(text: string): Refusal | undefined {
  // A rejection can come wrapped as an error (`<tool_use_error>Error: The user doesn't …`).
  const start = text.trimStart().slice(0, 400).replace(/^<tool_use_error>\s*/, '').replace(/^Error:\s*/, '');
  if (!REFUSAL_START.some((pattern) => pattern.test(start))) return undefined;
  const head = text.length > 4000 ? text.slice(0, 4000) : text;
  const match = REASON_AFTER.exec(head);
  if (!match) return {};
  const reason = head.slice(match.index + match[0].length).replace(/<\/tool_use_error>\s*$/, '').trim();
  if (!reason) return {};
  return { reason: reason.length > MAX_REASON_CHARS ? reason.slice(0, MAX_REASON_CHARS) : reason };
}
