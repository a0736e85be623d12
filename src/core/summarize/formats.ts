/**
 * One renderer per summary template (pi structured summary, pi turn prefix, Augment conversation
 * summary, the layered Archived Session Summary, the budget memory block; memory compression is in
 * memories.ts). Each renders a Digest into lines with priorities, so a length cap drops the least
 * important lines first and never a file list.
 */
import { type Digest, codeSpan, errorText, fileNote, omittedCommandsText, omittedErrorsText, splitFiles, type FileState } from './digest.ts';
import { clipLine } from './extract.ts';
import { MEMORY_MARKER } from './memories.ts';

export { compressMemories, MEMORY_MARKER, memoryLines } from './memories.ts';

/** A line of a group; higher priority survives longer under a cap (Infinity = never dropped). */
export interface Item {
  text: string;
  priority: number;
}

/** Fixed text, or a group of droppable lines with what to print when the group ends up empty. */
export type Part = { fixed: string } | { items: Item[]; empty?: string; numbered?: boolean; notePrefix?: string };

/** Which template a prompt id gets; unknown ids get pi's structured summary. */
export type TemplateId = 'pi-summary' | 'pi-turn-prefix' | 'augment-summary' | 'augment-memories-compression' | 'layered-archived-summary' | 'budget-memory-block';

export function templateFor(promptId: string): TemplateId {
  switch (promptId) {
    case 'pi-turn-prefix':
    case 'augment-summary':
    case 'augment-memories-compression':
    case 'layered-archived-summary':
    case 'budget-memory-block':
      return promptId;
    default:
      return 'pi-summary';
  }
}

/** Characters reserved per group for the "… N more omitted" note a cap may add. */
const NOTE_CHARS = 48;
const FIXED = Number.POSITIVE_INFINITY;

/** `base` plus up to 5 for recency: the newest of `n` items ranks highest within its band. */
export function rank(base: number, index: number, count: number): number {
  return base + (count > 1 ? (5 * index) / (count - 1) : 5);
}

function omittedNote(count: number): string {
  return `… ${count} more omitted to fit the length limit`;
}

/**
 * Joins the parts, first dropping droppable lines (lowest priority, then oldest) until the text
 * fits `budgetChars`. Fixed parts and Infinity lines are always kept, so the result can exceed a
 * budget that the file lists alone exceed.
 */
export function fit(parts: readonly Part[], budgetChars?: number): string {
  const dropped = parts.map((part) => ('items' in part ? new Array<boolean>(part.items.length).fill(false) : []));
  const lineLength = (part: Part, text: string, index: number): number => ('items' in part && part.numbered ? `${index + 1}. `.length : 0) + text.length + 1;
  let total = 0;
  parts.forEach((part) => {
    if ('fixed' in part) total += part.fixed.length + 1;
    else if (part.items.length === 0) total += (part.empty?.length ?? -1) + 1;
    else part.items.forEach((item, index) => (total += lineLength(part, item.text, index)));
  });
  if (budgetChars !== undefined && total > budgetChars) {
    const candidates: Array<{ part: number; index: number; priority: number }> = [];
    parts.forEach((part, p) => {
      if ('items' in part) part.items.forEach((item, index) => item.priority !== FIXED && candidates.push({ part: p, index, priority: item.priority }));
    });
    candidates.sort((a, b) => a.priority - b.priority || a.part - b.part || a.index - b.index);
    const noted = new Set<number>();
    for (const candidate of candidates) {
      if (total <= budgetChars) break;
      const part = parts[candidate.part] as Extract<Part, { items: Item[] }>;
      dropped[candidate.part]![candidate.index] = true;
      total -= lineLength(part, part.items[candidate.index]!.text, candidate.index);
      if (!noted.has(candidate.part)) {
        noted.add(candidate.part);
        total += NOTE_CHARS;
      }
    }
  }
  const lines: string[] = [];
  parts.forEach((part, p) => {
    if ('fixed' in part) {
      lines.push(part.fixed);
      return;
    }
    const kept = part.items.filter((_, index) => !dropped[p]![index]);
    const omitted = part.items.length - kept.length;
    if (kept.length === 0 && omitted === 0) {
      if (part.empty !== undefined) lines.push(part.empty);
      return;
    }
    kept.forEach((item, index) => lines.push(part.numbered ? `${index + 1}. ${item.text}` : item.text));
    if (omitted > 0) lines.push(`${part.notePrefix ?? '- '}${omittedNote(omitted)}`);
  });
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

function requestItems(requests: readonly string[], bullet: (request: string, index: number) => string): Item[] {
  const last = requests.length - 1;
  return requests.map((request, index) => ({ text: bullet(request, index), priority: index === last ? 95 : index === 0 ? 88 : rank(55, index, requests.length) }));
}

function contextPriority(item: string, index: number, count: number): number {
  if (item.startsWith('Last user request:')) return 92;
  if (item.startsWith('Last assistant reply:')) return 66;
  return /^[A-Z][\w ]{0,30}: /.test(item) ? 60 : rank(30, index, count);
}

function changedFiles(digest: Digest): Array<[string, FileState]> {
  return splitFiles(digest.files).changed.map((path) => [path, digest.files.get(path)!]);
}

/** Commands to list as run: one whose last run failed is listed as an open error instead. */
function ranCommands(digest: Digest): string[] {
  const failing = new Set(digest.errors.filter((error) => !error.resolved && error.target !== undefined).map((error) => error.target));
  return digest.commands.filter((command) => !failing.has(command));
}

/** The `Earlier errors left out: N` line, when a bounded error list left some out. */
function omittedErrorItems(digest: Digest, bullet: string): Item[] {
  return digest.errorsOmitted > 0 ? [{ text: `${bullet}${omittedErrorsText(digest.errorsOmitted)}`, priority: 33 }] : [];
}

/** The `Earlier commands left out: N` line, when a bounded command list left some out. */
function omittedCommandItems(digest: Digest, bullet: string): Item[] {
  return digest.commandsOmitted > 0 ? [{ text: `${bullet}${omittedCommandsText(digest.commandsOmitted)}`, priority: 25 }] : [];
}

function blank(): Part {
  return { fixed: '' };
}

/** pi's structured summary (Goal ... Critical Context) plus `<read-files>` / `<modified-files>`. */
export function piSummaryParts(digest: Digest): Part[] {
  const { read, changed } = splitFiles(digest.files);
  const resolved = digest.errors.filter((error) => error.resolved);
  const open = digest.errors.filter((error) => !error.resolved);
  // Only errors of the newest entries can block work still in progress; older or answered ones are history.
  const blocking = digest.inProgress.length > 0 ? open.filter((error) => error.recent) : [];
  const stale = open.filter((error) => !blocking.includes(error));
  const context: Item[] = digest.context.map((item, index) => ({ text: `- ${item}`, priority: contextPriority(item, index, digest.context.length) }));
  context.push(...omittedErrorItems(digest, '- '));
  context.push(...stale.map((error, index) => ({ text: `- ${errorText(error)}`, priority: rank(34, index, stale.length) })));
  if (digest.stack.length > 0) context.push({ text: `- Stack: ${digest.stack.join(', ')}`, priority: 62 });
  if (digest.environment.length > 0) context.push({ text: `- Environment: ${digest.environment.join('; ')}`, priority: 60 });
  if (digest.timeRange) context.push({ text: `- Time range: ${digest.timeRange.start} → ${digest.timeRange.end}`, priority: 64 });
  const parts: Part[] = [
    { fixed: '## Goal' },
    // A split turn's earlier history may hold no request: say so (the request is in the turn's own summary).
    { items: requestItems(digest.requests, (request) => `- ${request}`), empty: '(none: no user request in these messages)' },
    blank(),
    { fixed: '## Constraints & Preferences' },
    { items: digest.constraints.map((constraint, index) => ({ text: `- ${constraint}`, priority: rank(88, index, digest.constraints.length) })), empty: '(none)' },
    blank(),
    { fixed: '## Progress' },
    { fixed: '### Done' },
    {
      items: [
        ...digest.done.map((item, index) => ({ text: `- [x] ${item}`, priority: rank(45, index, digest.done.length) })),
        ...changedFiles(digest).map(([path, state], index, all) => ({ text: `- [x] Changed ${codeSpan(path)} (${fileNote(state)})`, priority: rank(40, index, all.length) })),
        ...resolved.map((error, index) => ({ text: `- [x] ${errorText(error)}`, priority: rank(36, index, resolved.length) })),
        ...omittedCommandItems(digest, '- [x] '),
        ...ranCommands(digest).map((command, index, all) => ({ text: `- [x] Ran ${codeSpan(command)}`, priority: rank(26, index, all.length) })),
      ],
      empty: '(none)',
    },
    blank(),
    { fixed: '### In Progress' },
    { items: digest.inProgress.map((item) => ({ text: `- [ ] ${item}`, priority: 80 })), empty: '(none)' },
    blank(),
    { fixed: '### Blocked' },
    {
      items: [
        ...blocking.map((error, index) => ({ text: `- ${errorText(error)}`, priority: rank(72, index, blocking.length) })),
        ...digest.blocked.map((item) => ({ text: `- ${item}`, priority: 70 })),
      ],
      empty: '(none)',
    },
    blank(),
    { fixed: '## Key Decisions' },
    { items: digest.decisions.map((decision, index) => ({ text: `- ${decision}`, priority: rank(46, index, digest.decisions.length) })), empty: '(none)' },
    blank(),
    { fixed: '## Next Steps' },
    { items: digest.nextSteps.map((step) => ({ text: step, priority: 78 })), empty: '(none)', numbered: true },
    blank(),
    { fixed: '## Critical Context' },
    { items: context, empty: '(none)' },
  ];
  if (read.length > 0) parts.push(blank(), { fixed: '<read-files>' }, ...read.map((path) => ({ fixed: path })), { fixed: '</read-files>' });
  if (changed.length > 0) parts.push(blank(), { fixed: '<modified-files>' }, ...changed.map((path) => ({ fixed: path })), { fixed: '</modified-files>' });
  return parts;
}

/** pi's summary of the early part of a turn cut in the middle (Original Request, Early Progress, Context for Suffix). */
export function piTurnPrefixParts(digest: Digest): Part[] {
  const { read } = splitFiles(digest.files);
  const open = digest.errors.filter((error) => !error.resolved);
  const resolved = digest.errors.filter((error) => error.resolved);
  const first = digest.requests[0];
  const reply = digest.context.find((item) => item.startsWith('Last assistant reply:'));
  return [
    { fixed: '## Original Request' },
    { items: first !== undefined ? [{ text: first, priority: 95 }] : [], empty: '(the request is before this part of the turn)' },
    blank(),
    { fixed: '## Early Progress' },
    {
      items: [
        ...changedFiles(digest).map(([path, state]) => ({ text: `- Changed ${codeSpan(path)} (${fileNote(state)})`, priority: FIXED })),
        ...resolved.map((error, index) => ({ text: `- ${errorText(error)}`, priority: rank(36, index, resolved.length) })),
        ...digest.decisions.map((decision, index) => ({ text: `- ${decision}`, priority: rank(46, index, digest.decisions.length) })),
        ...omittedCommandItems(digest, '- '),
        ...ranCommands(digest).map((command, index, all) => ({ text: `- Ran ${codeSpan(command)}`, priority: rank(26, index, all.length) })),
      ],
      empty: '(none)',
    },
    blank(),
    { fixed: '## Context for Suffix' },
    {
      items: [
        ...digest.constraints.map((constraint, index) => ({ text: `- Constraint: ${constraint}`, priority: rank(88, index, digest.constraints.length) })),
        ...open.map((error, index) => ({ text: `- ${errorText(error)}`, priority: rank(72, index, open.length) })),
        ...digest.inProgress.map((item) => ({ text: `- In progress: ${item}`, priority: 80 })),
        ...(read.length > 0 ? [{ text: `- Files read: ${read.map(codeSpan).join(', ')}`, priority: FIXED }] : []),
        ...(reply ? [{ text: `- ${reply}`, priority: 66 }] : []),
      ],
      empty: '(none)',
    },
  ];
}

function fileVerb(state: FileState): string {
  if (state.deleted) return 'deleted';
  if (state.created) return 'created';
  return 'modified';
}

/** Augment's "# Conversation Summary" (User Requirements, Agent Actions, Key Decisions, Pending Tasks), first person. */
export function augmentSummaryParts(digest: Digest): Part[] {
  const { read } = splitFiles(digest.files);
  const resolved = digest.errors.filter((error) => error.resolved);
  const open = digest.errors.filter((error) => !error.resolved);
  const blocking = digest.inProgress.length > 0 ? open.filter((error) => error.recent) : [];
  const stale = open.filter((error) => !blocking.includes(error));
  return [
    { fixed: '# Conversation Summary' },
    blank(),
    { fixed: '## User Requirements' },
    {
      items: [
        ...requestItems(digest.requests, (request) => `- ${request}`),
        ...digest.constraints.map((constraint, index) => ({ text: `- Constraint: ${constraint}`, priority: rank(88, index, digest.constraints.length) })),
      ],
      empty: '(none)',
    },
    blank(),
    { fixed: '## Agent Actions' },
    {
      items: [
        ...read.map((path) => ({ text: `- I viewed ${codeSpan(path)}`, priority: FIXED })),
        ...changedFiles(digest).map(([path, state]) => {
          const verb = fileVerb(state);
          const note = fileNote(state);
          return { text: `- I ${verb} ${codeSpan(path)}${note === verb ? '' : ` (${note})`}`, priority: FIXED };
        }),
        ...digest.done.map((item, index) => ({ text: `- I completed: ${item}`, priority: rank(45, index, digest.done.length) })),
        ...omittedErrorItems(digest, '- '),
        ...resolved.map((error, index) => ({ text: `- ${errorText(error)}`, priority: rank(36, index, resolved.length) })),
        ...stale.map((error, index) => ({ text: `- ${errorText(error)}`, priority: rank(34, index, stale.length) })),
        ...omittedCommandItems(digest, '- '),
        ...ranCommands(digest).map((command, index, all) => ({ text: `- I ran ${codeSpan(command)}`, priority: rank(26, index, all.length) })),
      ],
      empty: '- (none)',
    },
    blank(),
    { fixed: '## Key Decisions' },
    { items: digest.decisions.map((decision, index) => ({ text: `- ${decision}`, priority: rank(46, index, digest.decisions.length) })), empty: '(none)' },
    blank(),
    { fixed: '## Pending Tasks' },
    {
      items: [
        ...digest.inProgress.map((item) => ({ text: `- In progress: ${item}`, priority: 80 })),
        ...digest.nextSteps.map((step) => ({ text: `- ${step}`, priority: 78 })),
        ...blocking.map((error, index) => ({ text: `- Fix: ${errorText(error)}`, priority: rank(72, index, blocking.length) })),
        ...digest.blocked.map((item) => ({ text: `- Blocked: ${item}`, priority: 70 })),
      ],
      empty: '- (none)',
    },
  ];
}

function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The fixed "Archived Session Summary" of the layered spec, headings and emoji exactly as the seed gives them. */
export function layeredArchivedParts(digest: Digest): Part[] {
  const changed = changedFiles(digest);
  const open = digest.errors.filter((error) => !error.resolved);
  const answered = digest.done.filter((item) => / - answered$/.test(item)).length;
  const range = digest.timeRange ?? { start: '(unknown)', end: '(unknown)' };
  const [goal, ...rest] = digest.requests;
  const last = rest.length - 1;
  const learnings: Item[] = [
    ...omittedErrorItems(digest, '* **Learnings**: '),
    ...digest.errors.map((error, index) => ({ text: `* **Learnings**: ${errorText(error)}`, priority: error.resolved ? rank(36, index, digest.errors.length) : rank(70, index, digest.errors.length) })),
    ...digest.context.filter((item) => !/^[A-Z][\w ]{0,30}: /.test(item)).map((item, index, all) => ({ text: `* **Learnings**: ${item}`, priority: rank(30, index, all.length) })),
  ];
  return [
    { fixed: '## 📌 Archived Session Summary' },
    { fixed: `*(Contains context from ${range.start} to ${range.end})*` },
    blank(),
    { fixed: '### 🎯 Objectives & Status' },
    { items: goal !== undefined ? [{ text: `* **Original Goal**: ${goal}`, priority: 95 }] : [], empty: '* **Original Goal**: _(unknown)_', notePrefix: '* ' },
    { items: rest.map((request, index) => ({ text: `* **Request**: ${request}`, priority: index === last ? 90 : rank(55, index, rest.length) })), notePrefix: '* ' },
    { items: [{ text: `* **Status**: ${answered} of ${digest.requests.length} requests answered; ${changed.length} files changed; ${open.length} errors still open`, priority: 68 }] },
    blank(),
    { fixed: '### 🏗️ Technical Context (Static)' },
    { items: digest.stack.length > 0 ? [{ text: `* **Stack**: ${digest.stack.join(', ')}`, priority: 62 }] : [], empty: '* **Stack**: (not recorded)' },
    { items: digest.environment.length > 0 ? [{ text: `* **Environment**: ${digest.environment.join('; ')}`, priority: 60 }] : [], empty: '* **Environment**: (not recorded)' },
    blank(),
    { fixed: '### ✅ Completed Milestones (The "Done" Pile)' },
    { items: digest.done.map((item, index) => ({ text: `* [✓] ${item}`, priority: rank(45, index, digest.done.length) })), empty: '* (none)', notePrefix: '* ' },
    blank(),
    { fixed: '### 🧠 Key Insights & Decisions (Persistent Memory)' },
    { items: digest.decisions.map((decision, index) => ({ text: `* **Decisions**: ${decision}`, priority: rank(46, index, digest.decisions.length) })), empty: '* **Decisions**: _(none)_', notePrefix: '* ' },
    { items: learnings, empty: '* **Learnings**: (none)', notePrefix: '* ' },
    { items: digest.constraints.map((constraint, index) => ({ text: `* **User Preferences**: ${constraint}`, priority: rank(88, index, digest.constraints.length) })), empty: '* **User Preferences**: _(none)_', notePrefix: '* ' },
    blank(),
    { fixed: '### 📂 File System State (Snapshot)' },
    { fixed: '*(Modified files in this archive segment)*' },
    { items: changed.map(([path, state]) => ({ text: `* ${codeSpan(path)}: ${sentenceCase(fileNote(state))}.`, priority: FIXED })), empty: '* (no files modified)' },
  ];
}


/** Memory-block lines (without the marker), in output order, with priorities. */
export function memoryItems(digest: Digest): Item[] {
  const { read, changed } = splitFiles(digest.files);
  const reply = digest.context.find((item) => item.startsWith('Last assistant reply:'));
  return [
    ...requestItems(digest.requests, (request) => `- request: ${clipLine(request, 200)}`).map((item) => ({ ...item, priority: item.priority - 5 })),
    ...digest.constraints.map((constraint, index) => ({ text: `- constraint: ${constraint}`, priority: rank(88, index, digest.constraints.length) })),
    ...(changed.length > 0 ? [{ text: `- files modified: ${changed.map(codeSpan).join(', ')}`, priority: 86 }] : []),
    ...digest.inProgress.map((item) => ({ text: `- in progress: ${clipLine(item, 200)}`, priority: 72 })),
    ...omittedErrorItems(digest, '- ').map((item) => ({ ...item, priority: 20 })),
    ...digest.errors.map((error, index) => ({ text: `- error: ${errorText(error)}`, priority: error.resolved ? rank(34, index, digest.errors.length) : rank(68, index, digest.errors.length) })),
    ...digest.decisions.map((decision, index) => ({ text: `- decision: ${decision}`, priority: rank(40, index, digest.decisions.length) })),
    ...digest.done.map((item, index) => ({ text: `- done: ${clipLine(item, 200)}`, priority: rank(44, index, digest.done.length) })),
    ...(reply ? [{ text: `- last reply: ${clipLine(reply.slice('Last assistant reply: '.length), 200)}`, priority: 58 }] : []),
    ...(read.length > 0 ? [{ text: `- files read: ${read.map(codeSpan).join(', ')}`, priority: 24 }] : []),
  ];
}

/**
 * The budget strategy's `[历史摘要记忆]` block: at most `maxLines` lines under the marker and
 * `maxChars` characters in all (marker included). Lowest-priority lines go first; a line that
 * alone is too long is clipped.
 */
export function memoryBlock(digest: Digest, maxLines?: number, maxChars?: number): string {
  let items = memoryItems(digest);
  if (maxLines !== undefined && items.length > maxLines) {
    const keep = new Set([...items.keys()].sort((a, b) => items[b]!.priority - items[a]!.priority || b - a).slice(0, Math.max(0, maxLines)));
    items = items.filter((_, index) => keep.has(index));
  }
  const length = (): number => MEMORY_MARKER.length + items.reduce((sum, item) => sum + item.text.length + 1, 0);
  if (maxChars !== undefined) {
    while (items.length > 1 && length() > maxChars) {
      let worst = 0;
      items.forEach((item, index) => {
        if (item.priority < items[worst]!.priority) worst = index;
      });
      items.splice(worst, 1);
    }
    const only = items[0];
    if (only && length() > maxChars) items = [{ ...only, text: clipLine(only.text, Math.max(8, maxChars - MEMORY_MARKER.length - 1)) }];
    if (length() > maxChars) items = [];
  }
  return [MEMORY_MARKER, ...items.map((item) => item.text)].join('\n');
}

/** Renders `digest` as `template`; `budgetChars` caps the length (see `fit`). */
export function renderTemplateText(template: Exclude<TemplateId, 'augment-memories-compression' | 'budget-memory-block'>, digest: Digest, budgetChars?: number): string {
  switch (template) {
    case 'pi-summary':
      return fit(piSummaryParts(digest), budgetChars);
    case 'pi-turn-prefix':
      return fit(piTurnPrefixParts(digest), budgetChars);
    case 'augment-summary':
      return fit(augmentSummaryParts(digest), budgetChars);
    case 'layered-archived-summary':
      return fit(layeredArchivedParts(digest), budgetChars);
  }
}
