/**
 * Makes a model's text inert before it is stored: a summary is shown as text, but it is also
 * exported as Markdown and pasted into other tools, where an image would load (and could carry
 * data out in its URL) and a link or raw HTML would act. Markdown images and links keep their
 * words and lose their targets, raw HTML tags lose their angle brackets, and `javascript:`,
 * `data:` and `vbscript:` URLs are cut out. Bare web addresses stay as text (nothing loads them).
 * Text without any of these is returned unchanged.
 */

import type { SummaryResponse } from '../core/compaction/summarizer.ts';

export interface InertResult {
  text: string;
  /** How many images, links, tags and URLs were neutralized. */
  removed: number;
}

// ![alt](target "title") and ![alt][ref]; [text](target) and [text][ref]. Nested brackets are rare in summaries.
const IMAGE = /!\[([^\]\n]*)\]\((?:[^()\n]|\([^()\n]*\))*\)|!\[([^\]\n]*)\]\[[^\]\n]*\]/g;
const LINK = /\[([^\]\n]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g;
const REFERENCE_LINK = /\[([^\]\n]+)\]\[[^\]\n]*\]/g;
// [ref]: target (a link or image definition) on its own line.
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:[ \t]*\S+.*$/gm;
// <https://…> autolinks and <mail@host> become plain text.
const AUTOLINK = /<((?:[a-z][a-z0-9+.-]{1,31}):[^\s<>]*|[^\s<>@]+@[^\s<>@]+)>/gi;
// Raw HTML that loads, runs, links or styles something: such elements by name, and any tag with an
// event handler or a URL-bearing attribute. Plain tags a prompt asks for (`<summary>`, `<analysis>`,
// `<read-files>`) carry none of these and are kept as written.
const ACTIVE_TAGS = 'script|img|image|iframe|frame|frameset|object|embed|applet|link|meta|base|style|svg|math|video|audio|source|track|picture|a|area|form|input|button|textarea|select|template|portal|noscript';
const ACTIVE_ATTRIBUTE = String.raw`\s(?:on[a-z]+|src|srcset|href|xlink:href|style|action|formaction|background|poster|data|ping|srcdoc)\s*=`;
const HTML_TAG = new RegExp(String.raw`<\/?(?:(?:${ACTIVE_TAGS})(?=[\s/>]|$)[^<>]*|[a-z][a-z0-9_-]*(?=[^<>]*${ACTIVE_ATTRIBUTE})[^<>]*)>?|<!--[\s\S]*?(?:-->|$)`, 'gi');
// Script URLs, and data: URLs with a media type (so "Data: the CSV" in prose is left alone).
const DANGEROUS_URL = /\b(?:javascript|vbscript):[^\s)"'<>\]]+|\bdata:[a-z]+\/[a-z0-9.+-]+[;,][^\s)"'<>\]]*/gi;

/** `text` with its images, links, HTML and script/data URLs made inert, and how many there were. */
export function inertText(text: string): InertResult {
  let removed = 0;
  const count = <T extends unknown[]>(replace: (...args: T) => string) => (...args: T): string => {
    removed++;
    return replace(...args);
  };
  const out = text
    .replace(IMAGE, count((_m: string, alt?: string, refAlt?: string) => `[image: ${(alt ?? refAlt ?? '').trim() || 'no description'}]`))
    .replace(LINK, count((_m: string, words: string) => words))
    .replace(REFERENCE_LINK, count((_m: string, words: string) => words))
    .replace(DEFINITION, count(() => '[link definition removed]'))
    .replace(AUTOLINK, count((_m: string, target: string) => target))
    .replace(HTML_TAG, count((tag: string) => tag.replace(/</g, '‹').replace(/>/g, '›')))
    .replace(DANGEROUS_URL, count((url: string) => `[${url.split(':')[0]!.trim().toLowerCase()} URL removed]`));
  return { text: out, removed };
}

/** A model's response with its text made inert (what the providers return, so nothing active is ever stored). */
export function inertResponse(response: SummaryResponse): SummaryResponse {
  const { text, removed } = inertText(response.text);
  return removed === 0 ? response : { ...response, text };
}
