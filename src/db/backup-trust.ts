/**
 * A backup is data, never code or a key's destination. This module says what in a backup would run
 * or send requests if it were applied as it is: the hook module and the custom-strategy plugin in
 * the preferences (code), and the provider settings (remote base URL, model files' base URL), and
 * it makes the preferences row a restore writes: the backup's data preferences, this browser's own
 * code and provider settings (the backup's only when the user asked for them), and the backup's
 * code set aside, disabled, until the user enables it here. Pure: the CLI's backup-check uses the
 * same warnings the page shows.
 */
import { UNCHECKED_NOTE, type ParsedBackup, type Row } from './backup-format.ts';

/** The key of the page's preferences in the settings table (and in localStorage). */
export const PREFERENCES_KEY = 'foldlab.preferences';
/** The settings row holding code a restore set aside, disabled, until the user enables it. */
export const RESTORED_CODE_KEY = 'foldlab.restored-code';

/** Preferences that are code the page would run. */
const CODE_FIELDS = { hookSource: 'hook', pluginSource: 'plugin' } as const;
/** Preferences that choose where requests go and which model runs: applied only on request. */
export const PROVIDER_FIELDS = ['summarizerKind', 'remote', 'localModelId', 'localModelBaseUrl'] as const;

export type CodeKind = (typeof CODE_FIELDS)[keyof typeof CODE_FIELDS];

/** Something in a backup that is not applied as it is, in a sentence a user can act on. */
export interface BackupWarning {
  kind: CodeKind | 'endpoint' | 'checksum';
  message: string;
}

/** Code a restore set aside: shown with its source, run only after the user enables it in this browser. */
export interface RestoredCode {
  hookSource?: string;
  pluginSource?: string;
  /** When the backup was made (ms). */
  exportedAt: number;
}

/** An endpoint the backup's provider settings would send requests to (shown for confirmation). */
export interface BackupEndpoint {
  /** What it is for: "Remote summarizer (openai · gpt-4o-mini)", "Local model files". */
  label: string;
  url: string;
}

/** The zustand-persisted shape of the preferences row: `{ state, version }`. */
interface Persisted {
  state: Row;
  version?: unknown;
}

function persisted(value: unknown): Persisted | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const state = (value as { state?: unknown }).state;
  if (!state || typeof state !== 'object' || Array.isArray(state)) return undefined;
  return value as Persisted;
}

function preferencesOf(backup: ParsedBackup): Persisted | undefined {
  return persisted(backup.rows.settings.find((row) => row.key === PREFERENCES_KEY)?.value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function lines(source: string): string {
  const n = source.split('\n').length;
  return `${n.toLocaleString('en-US')} line${n === 1 ? '' : 's'}`;
}

/** The endpoints the backup's provider settings would use. */
export function backupEndpoints(backup: ParsedBackup): BackupEndpoint[] {
  const state = preferencesOf(backup)?.state;
  if (!state) return [];
  const out: BackupEndpoint[] = [];
  const remote = state.remote as { presetId?: unknown; model?: unknown; baseUrl?: unknown } | undefined;
  const remoteUrl = text(remote?.baseUrl);
  if (remoteUrl) out.push({ label: `Remote summarizer (${String(remote?.presetId ?? 'custom')} · ${String(remote?.model ?? '?')})`, url: remoteUrl });
  const files = text(state.localModelBaseUrl);
  if (files) out.push({ label: 'Local model files', url: files });
  return out;
}

/** What in the backup would run or send requests if applied as it is; empty when it is data only. */
export function backupWarnings(backup: ParsedBackup): BackupWarning[] {
  const state = preferencesOf(backup)?.state;
  const warnings: BackupWarning[] = [];
  if (backup.checksum === 'none') warnings.push({ kind: 'checksum', message: UNCHECKED_NOTE });
  if (state) {
    for (const [field, kind] of Object.entries(CODE_FIELDS)) {
      const source = text(state[field]);
      if (!source) continue;
      const what = kind === 'hook' ? 'a hook module, which would run on every Compact' : 'a custom-strategy plugin, which would run when the plan is previewed';
      warnings.push({ kind, message: `The preferences hold ${what} (${lines(source)}). It is restored disabled and runs only after you read it and enable it in this browser.` });
    }
  }
  for (const endpoint of backupEndpoints(backup)) {
    warnings.push({ kind: 'endpoint', message: `${endpoint.label} at ${endpoint.url}: provider settings are applied only if you tick "restore settings too" and confirm the endpoint; a remembered key is never sent to an endpoint it was not entered for.` });
  }
  return warnings;
}

export interface RestorePreferencesOptions {
  /** Apply the backup's provider settings (the user ticked "restore settings too" and confirmed the endpoints). Default false. */
  settings?: boolean;
}

/**
 * The preferences row value a restore writes, and the code it sets aside. The backup's data
 * preferences (counter, window, strategy, options, comparisons' setup) replace the current ones;
 * code fields always stay this browser's; provider fields stay this browser's unless `settings`.
 */
export function restoredPreferences(backupValue: unknown, currentValue: unknown, options: RestorePreferencesOptions = {}): { value: unknown; code: Omit<RestoredCode, 'exportedAt'> } {
  const theirs = persisted(backupValue);
  const mine = persisted(currentValue);
  if (!theirs) return { value: currentValue, code: {} };
  const state: Row = {};
  for (const [key, item] of Object.entries(theirs.state)) {
    if (key in CODE_FIELDS || (PROVIDER_FIELDS as readonly string[]).includes(key)) continue;
    state[key] = item;
  }
  const kept = [...Object.keys(CODE_FIELDS), ...(options.settings ? [] : PROVIDER_FIELDS)];
  for (const key of kept) if (mine && key in mine.state) state[key] = mine.state[key];
  if (options.settings) for (const key of PROVIDER_FIELDS) if (key in theirs.state) state[key] = theirs.state[key];
  const code: Omit<RestoredCode, 'exportedAt'> = {};
  for (const field of Object.keys(CODE_FIELDS) as Array<keyof typeof CODE_FIELDS>) {
    const source = text(theirs.state[field]);
    // Code this browser already runs, word for word, needs no enabling.
    if (source && source !== mine?.state[field]) code[field] = source;
  }
  return { value: { ...theirs, state }, code };
}
