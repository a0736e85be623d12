/**
 * Factory Droid keeps beside each session file `<session id>.jsonl` a `<session id>.settings.json`
 * (`{model, reasoningEffort, autonomyMode | autonomyLevel, providerLock, apiProviderLock,
 * tokenUsage: {inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens, thinkingTokens}}`).
 * It is metadata, never a transcript: the readers (the page's import, the command line) pair it with
 * its session. Its model names the session's model when no message does (so the session is priced),
 * and its token totals are checked against the usage the session's calls record: totals that
 * disagree are reported (the file lacks calls, or its calls lack usage), never spread over calls.
 */
import type { Usage } from '../journal/entry.ts';
import { describe, isRecord, num, str } from './builder.ts';
import { ImportFormatError, type ImportResult } from './types.ts';

/** What Foldlab reads of a session's settings file. */
export interface DroidSettings {
  model?: string;
  reasoningEffort?: string;
  /** `autonomyLevel` (newer) or `autonomyMode` (older): how far the droid acts without asking. */
  autonomy?: string;
  /** The session's totals: `input` without cache reads and writes, as Droid counts it. */
  tokenUsage?: { input: number; output: number; cacheRead: number; cacheWrite: number; thinking: number };
}

const SUFFIX = '.settings.json';
const TOKEN_KEYS = { input: 'inputTokens', output: 'outputTokens', cacheRead: 'cacheReadTokens', cacheWrite: 'cacheCreationTokens', thinking: 'thinkingTokens' } as const;

/** Whether a file name is a Droid session's settings (`<session id>.settings.json`). */
export function isDroidSettingsName(name: string): boolean {
  return name.toLowerCase().endsWith(SUFFIX) && name.length > SUFFIX.length;
}

/** The settings file name beside a session file (`<id>.jsonl` -> `<id>.settings.json`), or undefined for other names. */
export function droidSettingsNameOf(sessionName: string): string | undefined {
  const match = /^(.+)\.jsonl$/i.exec(sessionName);
  return match ? `${match[1]}${SUFFIX}` : undefined;
}

/** Reads a settings file's text; a file that is not the object it should be is refused with its name and the key at fault. */
export function parseDroidSettings(text: string, fileName: string): DroidSettings {
  const expected = 'expected Factory Droid\'s session settings {"model", "tokenUsage": {"inputTokens", "outputTokens", ...}}';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ImportFormatError(`"${fileName}" is not valid JSON (${(error as Error).message}); ${expected}.`);
  }
  if (!isRecord(value)) throw new ImportFormatError(`"${fileName}" is ${describe(value)}, not a JSON object; ${expected}.`);
  const settings: DroidSettings = {};
  const model = str(value.model) ?? (isRecord(value.sessionDefaultSettings) ? str(value.sessionDefaultSettings.model) : undefined);
  if (model) settings.model = model;
  const effort = str(value.reasoningEffort);
  if (effort) settings.reasoningEffort = effort;
  const autonomy = str(value.autonomyLevel) ?? str(value.autonomyMode);
  if (autonomy) settings.autonomy = autonomy;
  if (value.tokenUsage !== undefined) {
    if (!isRecord(value.tokenUsage)) throw new ImportFormatError(`"${fileName}": "tokenUsage" is ${describe(value.tokenUsage)}; ${expected}.`);
    const raw = value.tokenUsage;
    const read = (key: string): number => {
      if (raw[key] === undefined) return 0;
      const count = num(raw[key]);
      if (count === undefined || count < 0) throw new ImportFormatError(`"${fileName}": "tokenUsage.${key}" is ${describe(raw[key])}; expected a count of tokens.`);
      return count;
    };
    settings.tokenUsage = { input: read(TOKEN_KEYS.input), output: read(TOKEN_KEYS.output), cacheRead: read(TOKEN_KEYS.cacheRead), cacheWrite: read(TOKEN_KEYS.cacheWrite), thinking: read(TOKEN_KEYS.thinking) };
  }
  return settings;
}

/** The sums of the usage the session's calls record, in Droid's terms (input without the cache), or undefined when no call records any. */
export function recordedCallTotals(result: ImportResult): { calls: number; input: number; output: number; cacheRead: number; cacheWrite: number } | undefined {
  const usages: Usage[] = result.entries.flatMap((entry) => (entry.usage ? [entry.usage] : []));
  if (usages.length === 0) return undefined;
  const sum = (pick: (usage: Usage) => number) => usages.reduce((total, usage) => total + pick(usage), 0);
  const cacheRead = sum((usage) => usage.cacheRead ?? 0);
  const cacheWrite = sum((usage) => usage.cacheWrite ?? 0);
  return { calls: usages.length, input: sum((usage) => usage.input) - cacheRead - cacheWrite, output: sum((usage) => usage.output), cacheRead, cacheWrite };
}

/**
 * The import with its settings applied: the model when no line named one; an issue (line 0, naming
 * the file) when the totals disagree with the calls' recorded usage.
 */
export function withDroidSettings(result: ImportResult, settings: DroidSettings, fileName: string): ImportResult {
  const meta = { ...result.meta };
  if (settings.model && meta.model === undefined) meta.model = settings.model;
  const issues = [...result.issues];
  const totals = settings.tokenUsage;
  const calls = recordedCallTotals(result);
  if (totals && calls) {
    const keys = ['input', 'output', 'cacheRead', 'cacheWrite'] as const;
    const differing = keys.filter((key) => totals[key] !== calls[key]);
    if (differing.length > 0) {
      const said = differing.map((key) => `${TOKEN_KEYS[key]} ${totals[key]} where the calls record ${calls[key]}`).join(', ');
      issues.push({ line: 0, kind: 'malformed', message: `${fileName}: the session's token totals disagree with the usage its ${calls.calls} call${calls.calls === 1 ? '' : 's'} record: ${said} (calls without usage, or missing from the file); the per-call usage is kept as recorded` });
    }
  }
  const added = issues.length - result.issues.length;
  return { ...result, meta, issues, ...(added > 0 ? { issueCount: (result.issueCount ?? result.issues.length) + added } : {}) };
}
