// The offline summaries of every real sample against its hand-labelled gold file
// (src/core/probes/gold/, labelled by reading the sessions) as a replay reads them by default (the
// source agent's own compaction summaries left out): a summary of the whole session, and a
// chain of updates over four slices (each earlier summary cut to 60% of its tokens with the mark a
// strategy leaves) as pi compacts. Every summary must: state no constraint the gold lacks, call no
// error "still failing" that the gold marks resolved by then, list no cut mark as a file, have a
// Goal while a request was made, leave nothing finished under In Progress; and the whole-session
// summary must hold at least 60% of the gold's decisions.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isSourceCompaction } from '../compaction/input-scope.ts';
import { importText } from '../import/run.ts';
import type { Entry } from '../journal/entry.ts';
import type { GoldFile } from '../probes/gold-score.ts';
import { conversationBranches } from '../probes/listing.ts';
import { contentNeedles, normalizeForMatch } from '../probes/normalize.ts';
import { capTokens } from '../strategies/two-layer.ts';
import { getEstimator } from '../tokens/counters.ts';
import { extractFacts } from './extract.ts';
import { offlineSummaryText } from './offline.ts';

const GOLD_DIR = 'src/core/probes/gold/';
const GOLDS = readdirSync(GOLD_DIR).filter((name) => name.endsWith('.gold.json')).map((name) => JSON.parse(readFileSync(GOLD_DIR + name, 'utf8')) as GoldFile);
const counter = getEstimator('chars4');
const SLICES = 4;

/** The conversation as a replay reads it by default: from its first entry, the source agent's own compaction summaries left out. */
function branchOf(gold: GoldFile): Entry[] {
  const branch = conversationBranches(importText(readFileSync(gold.sample, 'utf8')).entries)[gold.conversation - 1]!;
  return branch.filter((entry) => entry.kind !== 'event' && !entry.flags?.sidechain && !isSourceCompaction(entry));
}

/** The items of a `##` / `###` section of a pi summary (bullets stripped, placeholders kept). */
function section(text: string, heading: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const end = lines.findIndex((line, index) => index > start && /^#{2,3} |^<(?:read|modified)-files>$/.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).filter((line) => line.trim() !== '').map((line) => line.replace(/^(?:- (?:\[[ x]\] )?|\d+\. )/, ''));
}

const words = (text: string): string[] => contentNeedles(normalizeForMatch(text), 60);

/** Whether two statements say the same: 60% of the shorter one's content words are in the other. */
function sameStatement(a: string, b: string): boolean {
  const [short, long] = words(a).length <= words(b).length ? [words(a), new Set(words(b))] : [words(b), new Set(words(a))];
  return short.length > 0 && short.filter((word) => long.has(word)).length / short.length >= 0.6;
}

interface Checked {
  summary: string;
  /** Last source line the summary covers. */
  through: number;
  entries: readonly Entry[];
}

/** Where a slice may start: not at a tool result (a strategy never cuts between a call and its result). */
function cutAt(branch: readonly Entry[], index: number): number {
  let at = index;
  while (at < branch.length && branch[at]!.blocks.some((block) => block.type === 'tool_result')) at++;
  return at;
}

function chain(branch: readonly Entry[]): Checked[] {
  const out: Checked[] = [];
  let previous: string | undefined;
  const size = Math.ceil(branch.length / SLICES);
  for (let from = 0; from < branch.length;) {
    const to = Math.max(from + 1, cutAt(branch, from + size));
    const slice = branch.slice(from, to);
    const summary = offlineSummaryText({ promptId: 'pi-summary', entries: slice, vars: {}, ...(previous !== undefined ? { previousSummary: previous } : {}) });
    out.push({ summary, through: Math.max(...slice.map((entry) => entry.line ?? 0)), entries: branch.slice(0, to) });
    previous = capTokens(summary, Math.floor(counter.count(summary) * 0.6), counter);
    from = to;
  }
  return out;
}

for (const gold of GOLDS) {
  describe(`${gold.sample} #${gold.conversation}`, () => {
    const branch = branchOf(gold);
    const whole: Checked = { summary: offlineSummaryText({ promptId: 'pi-summary', entries: branch, vars: {} }), through: Infinity, entries: branch };
    const checked = [whole, ...chain(branch)];
    // The error line the summarizer states for each failing result, by source line.
    const errorAt = new Map(extractFacts(branch).errors.map((error) => [branch.find((entry) => entry.id === error.entryId)?.line, error.message]));

    it('states no constraint the gold lacks', () => {
      for (const { summary } of checked) {
        for (const constraint of section(summary, '## Constraints & Preferences').filter((item) => item !== '(none)')) {
          expect(gold.constraints.some((item) => sameStatement(constraint, item.text ?? '')), constraint).toBe(true);
        }
      }
    });

    it('calls no error still failing that the gold marks resolved by then', () => {
      for (const { summary, through } of checked) {
        const failing = summary.split('\n').filter((line) => line.includes('failed, still failing: '));
        for (const error of gold.errors.filter((item) => item.status === 'resolved' && (item.resolvedLine ?? Infinity) <= through)) {
          const message = errorAt.get(error.line);
          // One line stands for a repeated error: it is true while any occurrence is still open then.
          const openThen = gold.errors.some((other) => errorAt.get(other.line) === message && (other.line ?? Infinity) <= through && (other.status === 'open' || (other.resolvedLine ?? Infinity) > through));
          if (message === undefined || openThen) continue;
          expect(failing.filter((line) => line.endsWith(`: ${message}`)), `line ${error.line}: ${error.text}`).toEqual([]);
        }
      }
    });

    it('lists no cut mark as a file, and keeps no mark of its own', () => {
      for (const { summary } of checked) {
        expect(summary).not.toContain('summary cut');
      }
    });

    it('has a Goal while the session has a request', () => {
      for (const { summary, through } of checked) {
        if (gold.tasks.some((task) => (task.line ?? Infinity) <= through)) expect(section(summary, '## Goal')).not.toEqual(['(none)']);
      }
    });

    it('leaves nothing finished under In Progress', () => {
      for (const { summary, entries } of checked) {
        const last = [...entries].reverse().find((entry) => entry.role === 'assistant' && !entry.flags?.synthetic);
        const answered = last !== undefined && last.blocks.some((block) => block.type === 'text' && block.text.trim()) && !last.blocks.some((block) => block.type === 'tool_call');
        const laterUser = last !== undefined && entries.slice(entries.indexOf(last) + 1).some((entry) => entry.role === 'user' && !entry.flags?.injected && entry.blocks.some((block) => block.type === 'text'));
        if (answered && !laterUser) expect(section(summary, '### In Progress')).toEqual(['(none)']);
      }
    });

    const required = gold.decisions.filter((decision) => !decision.optional);
    it.runIf(required.length > 0)('holds at least 60% of the gold decisions', () => {
      const stated = section(whole.summary, '## Key Decisions');
      const sources = (lines: readonly number[]): string => branch.filter((entry) => lines.includes(entry.line ?? -1)).flatMap((entry) => entry.blocks.map((block) => (block.type === 'text' ? block.text : ''))).join('\n');
      const found = required.filter((decision) => {
        const source = sources(decision.lines ?? (decision.line !== undefined ? [decision.line] : []));
        return stated.some((line) => source.includes(line) || sameStatement(line, decision.text ?? ''));
      });
      expect(found.length / required.length, required.filter((decision) => !found.includes(decision)).map((decision) => decision.text).join('\n')).toBeGreaterThanOrEqual(0.6);
    });
  });
}
