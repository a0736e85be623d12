/**
 * What part of a context may count as carrying a probe ("kept means kept"). A word match anywhere
 * is not enough:
 * - never: the system prompt, harness text inside user messages, tool outputs a strategy masked or
 *   rewrote (origin 'compressed'), fixed text a strategy adds ('synthetic'), stack-trace lines;
 * - an artifact: the call that made the change, still in the context, or a summary line that
 *   states its path and its change kind together (not a proposal, not an unchecked to-do); a
 *   `Read` call or a mention in prose never counts;
 * - an error: its own failing result while the context tells its true status (open, or resolved
 *   with the resolving result also present), or a summary line that states it with its true status;
 * - a constraint or a task: a summary or the user's own message (harness stripped); a constraint
 *   needs at least `CONSTRAINT_SHARE` of its content words there;
 * - a decision: the assistant's prose or a summary; an identifier: the user's or the assistant's
 *   words or a summary, never tool output.
 */
import type { Entry } from '../journal/entry.ts';
import { matchProbe, occurrences, prepareContext, type NormalizedContext } from '../probes/match.ts';
import { assistantText, realUserText } from '../probes/sources.ts';
import type { Probe } from '../probes/types.ts';

/** Share of a constraint's content words a summary or user message must hold. Default 0.6. */
export const CONSTRAINT_SHARE = 0.6;

export type PartOrigin = 'journal' | 'summary' | 'compressed' | 'synthetic';

/** Which text of a context part may carry a probe: the whole entry, the user's own words, the assistant's prose, a summary. */
export type EvidenceView = 'full' | 'user' | 'prose' | 'summary';

function isToolEntry(entry: Entry): boolean {
  return entry.role === 'tool' || entry.blocks.some((block) => block.type === 'tool_result');
}

/** The view of a part that may carry `probe`, or undefined when the part can never count for it. */
export function evidenceView(probe: Probe, origin: PartOrigin | undefined, entry: Entry | undefined): EvidenceView | undefined {
  if (origin === undefined || entry === undefined) return 'full';
  if (origin === 'compressed' || origin === 'synthetic') return undefined;
  if (origin === 'summary' || entry.role === 'summary') return 'summary';
  if (entry.role === 'system') return undefined;
  const own = entry.id === probe.entryId;
  switch (probe.category) {
    case 'artifact':
      return own && entry.role === 'assistant' ? 'full' : undefined;
    case 'error':
      return own && isToolEntry(entry) ? 'full' : undefined;
    case 'constraint':
    case 'task':
      return entry.role === 'user' && !isToolEntry(entry) ? 'user' : undefined;
    case 'decision':
      return entry.role === 'assistant' ? 'prose' : undefined;
    case 'identifier':
      return entry.role === 'user' && !isToolEntry(entry) ? 'user' : entry.role === 'assistant' ? 'prose' : undefined;
  }
}

const STACK_LINE = /^\s*(?:at\s+\S|File "[^"]+", line \d+|Traceback \(most recent call last\))/;

/** The text of a part in a view (stack-trace lines dropped from summaries). */
export function viewText(view: EvidenceView, entry: Entry | undefined, text: () => string): string {
  if (!entry || view === 'full') return text();
  if (view === 'user') return realUserText(entry) ?? '';
  if (view === 'prose') return assistantText(entry) ?? '';
  return text()
    .split('\n')
    .filter((line) => !STACK_LINE.test(line))
    .join('\n');
}

const KIND_WORDS: Record<string, RegExp> = {
  created: /\b(?:creat\w*|add(?:s|ed)?|new|wr[io]te|written|generat\w*|scaffold\w*)\b/i,
  modified: /\b(?:modif\w*|edit\w*|updat\w*|chang\w*|fix\w*|refactor\w*|rewr\w*|patch\w*|replac\w*|renam\w*|adjust\w*|tweak\w*)\b/i,
  deleted: /\b(?:delet\w*|remov\w*|rm|dropp?\w*)\b/i,
  read: /\b(?:read|open\w*|inspect\w*|review\w*|look\w* at|examin\w*|viewed|checked)\b/i,
};

/** Words of a plan or a wish, not a change that happened: "could modify", "- [ ] update". */
const PROPOSAL = /\b(?:could|might|would|should|plan(?:s|ned)? to|propos\w*|consider\w*|next step|todo|to do|will|going to|need(?:s)? to)\b|\[ \]/i;

const RESOLVED_WORDS = /\b(?:fixed|resolved|solved|now pass\w*|pass(?:es|ed|ing)|succeed\w*|succeeded|works?|working|green|no longer)\b/i;
const OPEN_WORDS = /\b(?:still|unresolved|not (?:yet )?(?:fixed|resolved)|open|failing|fails|remains?|broken|blocked)\b/i;

/** A line that names the list under it: a heading, a tag (`<modified-files>`), "Files read:". */
const SECTION = /^\s*(?:#{1,6}\s|<[\w-]+>\s*$|[^:]{1,60}:\s*$)/;

/** One non-blank line of a summary, with the heading of the section it sits in, normalized for matching. */
interface SummaryLine {
  section: string;
  line: string;
  prepared: NormalizedContext;
}

/**
 * The lines of each summary context read so far: every artifact and error probe a compaction checks
 * reads the same summary's lines, so each line is normalized once per summary, not once per probe.
 */
const summaryLines = new WeakMap<NormalizedContext, SummaryLine[]>();

function linesOf(context: NormalizedContext): SummaryLine[] {
  let lines = summaryLines.get(context);
  if (lines !== undefined) return lines;
  lines = [];
  let section = '';
  for (const line of context.original.split('\n').slice(0, 5000)) {
    if (line.trim().length === 0) continue;
    if (SECTION.test(line)) section = line.replace(/[<>#]/g, ' ').replace(/[-_]/g, ' ');
    else if (/^\s*<\/[\w-]+>\s*$/.test(line)) section = '';
    lines.push({ section, line, prepared: prepareContext(line) });
  }
  summaryLines.set(context, lines);
  return lines;
}

/**
 * Lines of a summary holding the probe (each checked on its own: "stated together"), each with the
 * heading of the section it sits in (`<read-files>`, "### Done"), which may state the kind or status.
 */
function matchingLines(probe: Probe, context: NormalizedContext): string[] {
  const out: string[] = [];
  for (const { section, line, prepared } of linesOf(context)) if (matchProbe(probe, prepared).kept) out.push(`${section} ${line}`);
  return out;
}

/**
 * Whether a view of a part carries a probe under the rules of the module comment. `resolvedNow`:
 * whether an error is resolved by the context's end; `present`: journal ids in the context.
 */
export function carries(probe: Probe, view: EvidenceView, entry: Entry | undefined, context: NormalizedContext, resolvedNow: boolean, present: ReadonlySet<string>): boolean {
  if (probe.category === 'constraint') {
    const needles = probe.needles[0] ?? [];
    if (needles.length === 0) return false;
    const found = needles.filter((needle) => occurrences(context, needle).length > 0).length;
    return found / needles.length >= CONSTRAINT_SHARE;
  }
  if (!matchProbe(probe, context).kept) return false;
  if (view !== 'summary') {
    // The failing result itself: true only while the context shows the status it has by then.
    if (probe.category === 'error' && entry) return !resolvedNow || (probe.resolvedBy !== undefined && present.has(probe.resolvedBy));
    return true;
  }
  if (probe.category === 'artifact') {
    const kind = KIND_WORDS[probe.kind];
    return matchingLines(probe, context).some((line) => (kind ? kind.test(line) : true) && !PROPOSAL.test(line));
  }
  if (probe.category === 'error') {
    return matchingLines(probe, context).some((line) => (resolvedNow ? RESOLVED_WORDS.test(line) : OPEN_WORDS.test(line) && !RESOLVED_WORDS.test(line)));
  }
  return true;
}
