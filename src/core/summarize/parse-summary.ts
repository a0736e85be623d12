/**
 * Reads a summary back into a digest (see digest.ts): any of our templates exactly, and a model's
 * loosely, by its headings, `Label: value` lines, file and command lines and error lines, so that
 * an update keeps what the earlier summary held.
 */
import { emptyDigest, MAX_FOREIGN_LINES, type Digest, type FileState } from './digest.ts';
import { SUMMARY_CUT_MARK } from '../compaction/summarizer.ts';
import { boundErrors } from './errors.ts';
import { itemKey, oneLine, unionInto } from './extract.ts';

type Field = 'requests' | 'constraints' | 'done' | 'inProgress' | 'nextSteps' | 'blocked' | 'decisions' | 'context' | 'files' | 'skip';

function headingField(heading: string): Field {
  const h = heading.toLowerCase().replace(/[^\p{L}\p{N}&' ]+/gu, ' ').replace(/\s+/g, ' ').trim();
  if (/\b(goal|original request|user requirements|objectives)\b/.test(h)) return 'requests';
  if (/\b(constraints?|preferences)\b/.test(h)) return 'constraints';
  if (/\bin progress\b/.test(h)) return 'inProgress';
  if (/\bblocked\b/.test(h)) return 'blocked';
  if (/\b(next steps?|pending)\b/.test(h)) return 'nextSteps';
  if (/\b(decisions?|insights)\b/.test(h)) return 'decisions';
  if (/^(done|progress)$|\b(completed|early progress|agent actions|milestones)\b/.test(h)) return 'done';
  if (/\bfile system\b/.test(h)) return 'files';
  return 'context';
}

const LABELS: Record<string, Field | 'error' | 'stack' | 'environment' | 'time' | 'fileList' | 'keyed'> = {
  'original goal': 'requests', goal: 'requests', request: 'requests', 'original request': 'requests', 'user request': 'requests',
  constraint: 'constraints', constraints: 'constraints', 'user preferences': 'constraints', preference: 'constraints', preferences: 'constraints',
  decision: 'decisions', decisions: 'decisions', learnings: 'error', learning: 'error', error: 'error', fix: 'error', blocked: 'error',
  stack: 'stack', environment: 'environment', 'time range': 'time', status: 'skip',
  'in progress': 'inProgress', next: 'nextSteps', 'next step': 'nextSteps', done: 'done', completed: 'done', 'i completed': 'done',
  modified: 'fileList', 'files modified': 'fileList', changed: 'fileList', created: 'fileList', deleted: 'fileList', read: 'fileList', 'files read': 'fileList', viewed: 'fileList',
  'last user request': 'keyed', 'last assistant reply': 'keyed', 'last reply': 'keyed', 'project root': 'keyed', 'files under': 'keyed',
};

/** Plain (not bold) labels honoured per section; every label is honoured in context sections. */
const PLAIN_LABELS: Partial<Record<Field, string[]>> = {
  done: ['i completed', 'done'],
  nextSteps: ['fix', 'in progress', 'next'],
};

const SPAN = /(`+)\s?(.+?)\s?\1(?!`)/g;
const ERROR_LINE = /^([\w.:/-]+)(?: (`+)\s?(.+?)\s?\2(?!`))? failed(, later fixed|, still failing)?: (.*)$/;
const OMITTED_ERRORS = /\bEarlier errors left out: (\d+)\b/;
const OMITTED_COMMANDS = /\bEarlier commands left out: (\d+)\b/;
const FILE_LINE = /^(?:I )?(read|viewed|modified|changed|edited|created|deleted) (`+)\s?(.+?)\s?\2(?!`)(?: \(([^)]*)\))?$/i;
const FILE_STATE_LINE = /^(`+)\s?(.+?)\s?\1(?!`):\s*(.*)$/;
const COMMAND_LINE = /^(?:I )?ran (`+)\s?(.+?)\s?\1$/i;
const LABEL_LINE = /^\*{0,2}([^*:`]{1,40}?)\*{0,2}:\s+(.*)$/;
const SKIP = /^(_\(.*\)_|\(none[^)]*\)|none|\(not recorded\)|\(no files modified\)|\(unknown\)|…\s*\d+ more .*omitted.*)$/i;

function spans(text: string): string[] {
  return [...text.matchAll(SPAN)].map((match) => match[2] ?? '').filter((value) => value.length > 0);
}

function noteState(note: string, base: Partial<FileState>): FileState {
  const lower = note.toLowerCase();
  const edits = Number(/(\d+) edits?/.exec(lower)?.[1] ?? 0);
  const created = base.created === true || /\bcreated\b/.test(lower);
  const deleted = base.deleted === true || /\bdeleted\b/.test(lower);
  const changed = base.modified === true || created || deleted || edits > 0 || /\b(modified|changed|edited)\b/.test(lower);
  return { read: !changed, modified: changed, created, deleted, edits };
}

function addFile(files: Map<string, FileState>, path: string, state: FileState): void {
  const old = files.get(path);
  if (!old) {
    files.set(path, state);
    return;
  }
  // Two lines of one summary describe the same history: take the larger count, not the sum.
  files.set(path, { read: old.read && state.read, modified: old.modified || state.modified, created: old.created || state.created, deleted: old.deleted || state.deleted, edits: Math.max(old.edits, state.edits) });
}

function parseTime(value: string): string | undefined {
  const trimmed = value.replace(/^\[|\]$/g, '').trim();
  return trimmed && !/^(unknown|start time|cutoff time)$/i.test(trimmed) ? trimmed : undefined;
}

/** Reads one of our summaries (or, loosely, a model's) back into a digest. */
export function parseSummary(text: string): Digest {
  const digest = emptyDigest();
  const seen = new Map<Field, Set<string>>();
  let field: Field = 'context';
  let fileBlock: 'read' | 'modified' | undefined;
  let requirements = false;
  let layered = false;
  let foreign = 0;
  const push = (target: Field, value: string, placeholders = true): void => {
    if (target === 'skip' || target === 'files') return;
    const item = oneLine(value);
    if (!item || (placeholders && SKIP.test(item))) return;
    if (target === 'context' && !/^[A-Z][\w ]{0,30}: /.test(item) && ++foreign > MAX_FOREIGN_LINES) return;
    const keys = seen.get(target) ?? new Set(digest[target].map(itemKey));
    seen.set(target, keys);
    unionInto(digest[target], [item], keys);
  };
  const pushError = (line: string): boolean => {
    const match = ERROR_LINE.exec(line);
    if (!match) return false;
    const target = match[3];
    digest.errors.push({ tool: match[1] ?? 'tool', ...(target ? { target } : {}), message: match[5] ?? '', resolved: match[4] === ', later fixed' });
    return true;
  };

  for (const raw of text.split('\n')) {
    const line = raw.trim();
    // A strategy's cut mark is no content: not a file, not a request.
    if (!line || line === SUMMARY_CUT_MARK) continue;
    const block = /^<(\/?)(read-files|modified-files)>$/.exec(line);
    if (block) {
      fileBlock = block[1] ? undefined : block[2] === 'read-files' ? 'read' : 'modified';
      continue;
    }
    if (fileBlock) {
      addFile(digest.files, line, fileBlock === 'read' ? { read: true, modified: false, created: false, deleted: false, edits: 0 } : { read: false, modified: true, created: false, deleted: false, edits: 0 });
      continue;
    }
    if (/^<\/?summary>$/.test(line)) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      field = headingField(heading[1] ?? '');
      // Only Augment's requirements list mixes in `Constraint:` lines; pi's Goal is the user's words alone.
      requirements = /user requirements/i.test(heading[1] ?? '');
      // Bold `**Label**:` bullets are the layered template's; elsewhere they are the user's own text.
      layered = /objectives|technical context|insights|milestones/i.test(heading[1] ?? '');
      continue;
    }
    const range = /Contains context from (.+?) to (.+?)\)/.exec(line);
    if (range) {
      const start = parseTime(range[1] ?? '');
      const end = parseTime(range[2] ?? '');
      if (start && end) digest.timeRange = { start, end };
      continue;
    }
    if (line === '[历史摘要记忆]') {
      field = 'context';
      continue;
    }
    if (/^\*\(.*\)\*$/.test(line)) continue;
    const bulleted = line.replace(/^(?:[-*+•]|\d+[.)])\s+/, '');
    // Verbatim sections hold the user's and assistant's own words: a checkbox or `(none)` there is
    // text, while our empty-section placeholder is the only unbulleted line.
    const verbatim = field === 'requests' || field === 'constraints' || field === 'decisions';
    const ownWords = verbatim && bulleted !== line;
    const item = (verbatim ? bulleted : bulleted.replace(/^\[(?:x|X| |✓|✔)\]\s*/, '')).trim();
    if (!item || (!ownWords && SKIP.test(item))) continue;
    const omitted = verbatim ? null : OMITTED_ERRORS.exec(item);
    if (omitted) {
      digest.errorsOmitted += Number(omitted[1]);
      continue;
    }
    const omittedCommands = verbatim ? null : OMITTED_COMMANDS.exec(item);
    if (omittedCommands) {
      digest.commandsOmitted += Number(omittedCommands[1]);
      continue;
    }

    if (field === 'files') {
      const state = FILE_STATE_LINE.exec(item);
      if (state) addFile(digest.files, state[2] ?? '', noteState(state[3] ?? '', { modified: true }));
      continue;
    }
    // Verbatim sections only honour the layered bold labels.
    const labelled = LABEL_LINE.exec(item);
    const label = (labelled?.[1] ?? '').trim().toLowerCase();
    const bold = layered && item.startsWith('**');
    const allowed = bold || field === 'context' || (PLAIN_LABELS[field] ?? []).includes(label) || (requirements && label === 'constraint');
    const kind = labelled && allowed ? LABELS[label] : undefined;
    const value = labelled?.[2] ?? '';
    if (!verbatim || bold) {
      if (pushError(kind === 'error' || kind === 'inProgress' || kind === 'done' ? value : item)) continue;
      const file = FILE_LINE.exec(item);
      if (file) {
        const verb = (file[1] ?? '').toLowerCase();
        addFile(digest.files, file[3] ?? '', verb === 'read' || verb === 'viewed' ? { read: true, modified: false, created: false, deleted: false, edits: 0 } : noteState(`${verb} ${file[4] ?? ''}`, { modified: true }));
        continue;
      }
      const command = COMMAND_LINE.exec(item);
      if (command) {
        unionInto(digest.commands, [command[2] ?? '']);
        continue;
      }
    }
    if (labelled && kind) {
      if (kind === 'error') {
        push(label === 'learnings' || label === 'learning' ? 'context' : 'blocked', value);
      } else if (kind === 'stack') {
        unionInto(digest.stack, value.split(/,\s*/).filter((part) => part && !SKIP.test(part)));
      } else if (kind === 'environment') {
        unionInto(digest.environment, value.split(/;\s*/).filter((part) => part && !SKIP.test(part)));
      } else if (kind === 'time') {
        const [start, end] = value.split(/\s+(?:→|->|to)\s+/);
        if (start && end) digest.timeRange = { start: start.trim(), end: end.trim() };
      } else if (kind === 'fileList') {
        const verbState = /read|viewed/.test(label) ? { read: true, modified: false, created: false, deleted: false, edits: 0 } : noteState(label, { modified: true });
        for (const path of spans(value)) addFile(digest.files, path, verbState);
      } else if (kind === 'keyed') {
        push('context', `${(labelled[1] ?? '').trim()}: ${value}`);
      } else if (kind === 'requests' || kind === 'constraints' || kind === 'decisions') {
        // The user's words: only our italic placeholder (`_(none)_`) is not an item.
        if (!/^_\(.*\)_$/.test(value)) push(kind, value, false);
      } else {
        push(kind, value);
      }
      continue;
    }
    push(field, item, !ownWords);
  }
  const bounded = boundErrors(digest.errors);
  digest.errors = bounded.errors;
  digest.errorsOmitted += bounded.omitted;
  digest.hasState = digest.inProgress.length > 0 || digest.nextSteps.length > 0;
  return digest;
}
