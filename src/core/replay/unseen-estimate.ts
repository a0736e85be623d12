/**
 * An unseen prefix the user enters where the transcript recorded no usage (or to override it): a
 * number of tokens, or a preset per agent, always labelled as an estimate. The presets come from
 * the first recorded call of public sample sessions (prompt tokens recorded minus the transcript
 * counted with o200k), not from any agent's documentation: a rough size of the system prompt and
 * tool definitions of a default install.
 */
import type { UnseenPrefix } from './recorded-usage.ts';

export interface UnseenPreset {
  id: string;
  tokens: number;
  /** Where the figure comes from, said in the note. */
  basis: string;
}

export const UNSEEN_PREFIX_PRESETS: readonly UnseenPreset[] = [
  { id: 'claude-code', tokens: 17_400, basis: 'the first call of the Claude Code sample session (CLI 1.0.51): 17,437 prompt tokens recorded for 37 in the transcript' },
  { id: 'pi', tokens: 1_640, basis: 'the first call of the pi sample session: 1,687 prompt tokens recorded for 51 in the transcript' },
];

export class UnseenPrefixError extends Error {
  override name = 'UnseenPrefixError';
}

/** `--unseen-prefix` and the settings field: a whole number of tokens (`_` allowed) or a preset id. */
export function parseUnseenPrefix(raw: string): UnseenPrefix {
  const text = raw.trim();
  const preset = UNSEEN_PREFIX_PRESETS.find((p) => p.id === text.toLowerCase());
  if (preset) {
    return { tokens: preset.tokens, source: 'estimate', preset: preset.id, calls: 0, note: `An estimate of ${fmt(preset.tokens)} tokens not in the transcript (system prompt, tool definitions): the ${preset.id} preset, from ${preset.basis}.` };
  }
  const n = Number(text.replace(/_/g, ''));
  if (text === '' || !Number.isInteger(n) || n < 0) {
    throw new UnseenPrefixError(`The unseen prefix must be a whole number of tokens >= 0 or one of the presets ${UNSEEN_PREFIX_PRESETS.map((p) => p.id).join(', ')}; got "${raw}".`);
  }
  return { tokens: n, source: n > 0 ? 'estimate' : 'none', calls: 0, note: n > 0 ? `An estimate of ${fmt(n)} tokens not in the transcript (system prompt, tool definitions), entered by hand.` : 'Set to 0: the context counts only the transcript.' };
}

/**
 * The prefix a replay or a plan uses: the one entered, when there is one (with what the recorded
 * usage gives beside it), else the recorded one (0 with a note where nothing was recorded).
 */
export function chooseUnseenPrefix(recorded: UnseenPrefix, entered?: UnseenPrefix): UnseenPrefix {
  if (!entered) return recorded;
  if (recorded.source !== 'recorded') return entered;
  return { ...entered, note: `${entered.note} The recorded usage gives ${fmt(recorded.tokens)}.` };
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
