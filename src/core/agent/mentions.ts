/**
 * L8 (seed 002 §A7, §C3, §E4): `@path` mentions in a user message. The seed's regex finds them
 * (project-relative paths, no spaces); one right after a letter or digit (`me@host.com`) is not a
 * mention; they are kept in order of appearance, de-duplicated, at most 5, the rest said as
 * "(and N more…)". The result is a `<system-reminder>` appended to the user message (not a
 * separate system message): by default in the seed's reminder-only form, which names the files
 * and tells the model to read them itself; or, when the user chooses to paste, with the files'
 * contents read through the `read` tool's rules (confinement, binary detection, the 500-line cut,
 * L9 tracking).
 */
import { getPrompt, renderTemplate, type PromptLibrary } from '../compaction/prompts.ts';
import { wrapTranscript } from '../compaction/serialize.ts';
import type { Folder } from './types.ts';
import { createToolEnv, type FolderToolOptions } from './tools/index.ts';
import { readText } from './tools/read-text.ts';
import { resolveToolPath } from './tools/paths.ts';

/** The seed's regex (MVP): `@` then a relative path of ASCII letters, digits, `/`, `.`, `_`, `-`. */
export const MENTION_PATTERN = /@([a-zA-Z0-9/._-]+(?:\.[a-zA-Z0-9]+)?)/g;
/** Files taken from one message; the rest are only counted. */
export const MAX_MENTIONS = 5;

/** 'reminder': name the files, the model reads them (the seed); 'paste': append their contents. */
export type MentionMode = 'reminder' | 'paste';
/** The seed's behaviour. */
export const DEFAULT_MENTION_MODE: MentionMode = 'reminder';

/** `reminder` or `paste` (the CLI's `--mentions`, a stored setting) to a mode; anything else throws with the choices. */
export function parseMentionMode(raw: string): MentionMode {
  if (raw === 'reminder' || raw === 'paste') return raw;
  throw new Error(`mentions must be reminder or paste; got "${raw}"`);
}

export interface ParsedMentions {
  /** The first MAX_MENTIONS distinct paths, in order of appearance. */
  paths: string[];
  /** Distinct paths beyond those. */
  more: number;
}

/**
 * The mentions of `text`. A match preceded by a letter or digit is not a mention; a sentence's
 * final period is not part of the path ("see @README.md." names `README.md`).
 */
export function parseMentions(text: string): ParsedMentions {
  const seen: string[] = [];
  for (const match of text.matchAll(MENTION_PATTERN)) {
    const before = match.index > 0 ? text[match.index - 1]! : '';
    if (/[\p{L}\p{N}]/u.test(before)) continue;
    const path = match[1]!.replace(/\.+$/, '');
    if (path === '' || seen.includes(path)) continue;
    seen.push(path);
  }
  return { paths: seen.slice(0, MAX_MENTIONS), more: Math.max(0, seen.length - MAX_MENTIONS) };
}

/** Prompt files of the reminder (prompts/mention-*.md): its frame, the read-it-yourself line (one file, several), the contents line. */
export const MENTION_PROMPT_IDS = { reminder: 'mention-reminder', readOne: 'mention-read-one', readMany: 'mention-read-many', contents: 'mention-contents' } as const;

function mentionedNames(parsed: ParsedMentions): string {
  const names = parsed.paths.map((path) => `@${path}`).join(', ');
  return `${names}${parsed.more > 0 ? ` (and ${parsed.more} more…)` : ''}`;
}

export interface MentionOptions extends FolderToolOptions {
  /** The prompt files the reminder's wording comes from (MENTION_PROMPT_IDS). */
  prompts: PromptLibrary;
  /**
   * 'reminder' appends only the seed's instruction to read them with the Read tool; 'paste'
   * appends the files' contents (cut like `read`). Default 'reminder' (DEFAULT_MENTION_MODE).
   */
  mode?: MentionMode;
  signal?: AbortSignal;
}

/**
 * The `<system-reminder>` to append to a user message that mentions files, or undefined when it
 * mentions none. Use the session's tool options (same `.gitignore` choice, same mtime tracker).
 */
export async function mentionReminder(text: string, folder: Folder, options: MentionOptions): Promise<string | undefined> {
  const parsed = parseMentions(text);
  if (parsed.paths.length === 0) return undefined;
  const prompt = (id: string) => getPrompt(options.prompts, id).trim();
  const lines: string[] = [];
  if ((options.mode ?? DEFAULT_MENTION_MODE) === 'reminder') {
    lines.push(prompt(parsed.paths.length + parsed.more === 1 ? MENTION_PROMPT_IDS.readOne : MENTION_PROMPT_IDS.readMany));
  } else {
    const env = createToolEnv(folder, options);
    const signal = options.signal ?? new AbortController().signal;
    lines.push(prompt(MENTION_PROMPT_IDS.contents));
    for (const path of parsed.paths) {
      lines.push('');
      try {
        const target = await resolveToolPath(env, path);
        const result = await readText(env, target, {}, signal);
        lines.push(`@${path}:`, wrapTranscript(result.text, 'file'));
      } catch (error) {
        lines.push(`@${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return renderTemplate(getPrompt(options.prompts, MENTION_PROMPT_IDS.reminder), { mentions: mentionedNames(parsed), body: lines.join('\n') }).trim();
}

/** The user message with its mentions' reminder appended (unchanged when it mentions nothing). */
export async function withMentions(text: string, folder: Folder, options: MentionOptions): Promise<string> {
  const reminder = await mentionReminder(text, folder, options);
  return reminder === undefined ? text : `${text}\n\n${reminder}`;
}
