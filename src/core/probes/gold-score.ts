/**
 * Measures probes against a hand-labelled gold file (see `gold/README.md`): per category, which
 * probes a careful reader also lists (precision) and which gold items a probe found (recall).
 * Matching: tasks by source line; constraints and decisions by source line and shared words;
 * artifacts by path and kind; errors by the line of the failing result, counted correct only with
 * the gold's status; identifiers by value. Optional gold items make a matching probe correct and
 * never count as missed.
 */
import type { ListedProbe } from './listing.ts';
import { contentNeedles, normalizeForMatch } from './normalize.ts';
import { PROBE_CATEGORIES, type ProbeCategory } from './types.ts';

interface GoldItem {
  line?: number;
  lines?: number[];
  text?: string;
  optional?: boolean;
}

export interface GoldFile {
  sample: string;
  conversation: number;
  tasks: GoldItem[];
  constraints: GoldItem[];
  decisions: GoldItem[];
  artifacts: Array<GoldItem & { path: string; kind: string }>;
  errors: Array<GoldItem & { status: 'open' | 'resolved'; resolvedLine?: number }>;
  identifiers: Array<GoldItem & { value: string }>;
}

export interface CategoryScore {
  /** Probes of the category, and how many of them match a gold item (optional ones included). */
  probes: number;
  correct: number;
  /** Required gold items, and how many a probe matched. */
  gold: number;
  found: number;
  /** correct / probes (1 when there are no probes). */
  precision: number;
  /** found / gold (1 when the gold lists none). */
  recall: number;
  /** Probes matching no gold item, and required gold items no probe matched (for reading a failure). */
  wrong: string[];
  missed: string[];
}

const GOLD_KEY: Record<ProbeCategory, keyof Omit<GoldFile, 'sample' | 'conversation'>> = {
  task: 'tasks',
  constraint: 'constraints',
  decision: 'decisions',
  artifact: 'artifacts',
  error: 'errors',
  identifier: 'identifiers',
};

function lines(item: GoldItem): number[] {
  return item.lines ?? (item.line === undefined ? [] : [item.line]);
}

/** Share of `a`'s content words that also occur in `b`. */
function overlap(a: string, b: string): number {
  const words = contentNeedles(normalizeForMatch(a), 1000);
  if (words.length === 0) return 0;
  const other = new Set(contentNeedles(normalizeForMatch(b), 1000));
  return words.filter((word) => other.has(word)).length / words.length;
}

function samePath(probe: string, gold: string): boolean {
  const a = probe.replace(/^\.\//, '');
  const b = gold.replace(/^\.\//, '');
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

function sameValue(probe: string, gold: string): boolean {
  const a = normalizeForMatch(probe);
  const b = normalizeForMatch(gold);
  return a === b || a === `#${b}` || b === `#${a}`;
}

/** Whether a probe states a gold item (see the module comment). */
export function matchesGold(category: ProbeCategory, probe: ListedProbe, item: GoldItem): boolean {
  switch (category) {
    case 'task':
      return lines(item).includes(probe.line);
    case 'constraint':
    case 'decision':
      return lines(item).includes(probe.line) && Math.max(overlap(probe.text, item.text ?? ''), overlap(item.text ?? '', probe.text)) >= 0.5;
    case 'artifact': {
      const artifact = item as GoldFile['artifacts'][number];
      return probe.kind === artifact.kind && samePath(probe.text, artifact.path);
    }
    case 'error': {
      const error = item as GoldFile['errors'][number];
      return probe.line === error.line && probe.status === error.status;
    }
    case 'identifier':
      return sameValue(probe.text, (item as GoldFile['identifiers'][number]).value);
  }
}

function describe(item: GoldItem & { path?: string; kind?: string; value?: string; status?: string }): string {
  return `line ${lines(item).join('/') || '?'}: ${item.path ? `${item.kind} ${item.path}` : item.value ?? `${item.status ? `${item.status} ` : ''}${item.text ?? ''}`}`;
}

/** Precision and recall of one conversation's probes against its gold, per category. */
export function scoreAgainstGold(probes: readonly ListedProbe[], gold: GoldFile): Record<ProbeCategory, CategoryScore> {
  const scores = {} as Record<ProbeCategory, CategoryScore>;
  for (const category of PROBE_CATEGORIES) {
    const items = gold[GOLD_KEY[category]] as GoldItem[];
    const own = probes.filter((probe) => probe.category === category && probe.conversation === gold.conversation);
    const matched = new Set<GoldItem>();
    const wrong: string[] = [];
    let correct = 0;
    for (const probe of own) {
      const hits = items.filter((item) => matchesGold(category, probe, item));
      if (hits.length === 0) wrong.push(`line ${probe.line}: ${probe.category === 'artifact' ? `${probe.kind} ` : probe.status ? `${probe.status} ` : ''}${probe.text}`);
      else correct++;
      for (const item of hits) matched.add(item);
    }
    const required = items.filter((item) => item.optional !== true);
    const missed = required.filter((item) => !matched.has(item)).map(describe);
    const found = required.length - missed.length;
    scores[category] = {
      probes: own.length,
      correct,
      gold: required.length,
      found,
      precision: own.length === 0 ? 1 : correct / own.length,
      recall: required.length === 0 ? 1 : found / required.length,
      wrong,
      missed,
    };
  }
  return scores;
}
