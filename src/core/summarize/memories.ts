/**
 * Augment memory compression done offline: memory lines deduplicated (exact and contained ones,
 * and older ones a kept recent memory already says), then the most similar lines (word overlap,
 * Chinese by character pairs) merged until at most the target number remain; a merged line states
 * shared words once. Deterministic; the order of first mention is kept.
 */
import { itemKey, oneLine } from './extract.ts';

/** The marker line of the budget strategy's memory block. */
export const MEMORY_MARKER = '[历史摘要记忆]';

const STOPWORDS = new Set('a an the and or of to in on at for with by is are was were be been it its this that as from user user\'s has have had i'.split(' '));

function memoryTokens(line: string): Set<string> {
  const tokens = new Set<string>();
  for (const word of line.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (/\p{Script=Han}/u.test(word)) {
      for (let i = 0; i + 1 < word.length; i++) tokens.add(word.slice(i, i + 2));
      if (word.length === 1) tokens.add(word);
    } else if (!STOPWORDS.has(word) && word.length > 1) {
      tokens.add(word);
    }
  }
  return tokens;
}

/** Memory lines: bullets and blank lines stripped, exact duplicates (by key) and lines contained in another removed. */
export function memoryLines(text: string): string[] {
  const lines = text.split('\n').map((line) => oneLine(line.replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, ''))).filter((line) => line.length > 0 && line !== MEMORY_MARKER);
  const unique: string[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const key = itemKey(line);
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(line);
  }
  const keys = unique.map(itemKey);
  return unique.filter((_, index) => !keys.some((other, j) => j !== index && other.length > keys[index]!.length && other.includes(keys[index]!)));
}

/** Older memories without those a kept recent memory already says (the same, or contained in it): the later one wins. */
export function withoutRecent(lines: readonly string[], recent: readonly string[]): string[] {
  const keys = recent.map(itemKey);
  return lines.filter((line) => {
    const key = itemKey(line);
    return !keys.some((other) => other.includes(key));
  });
}

const words = (line: string): string[] => line.split(/\s+/).filter((word) => word !== '');
const wordKey = (word: string): string => word.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * One line for a group of similar memories, shared words said once: a later line loses the words it
 * shares with the start of the merged line (and a leading filler word), and what is left is added
 * after a comma ("User prefers TypeScript over JavaScript" + "User prefers TypeScript strict mode"
 * -> "User prefers TypeScript over JavaScript, strict mode"). A line the merged one already says
 * adds nothing.
 */
export function mergeMemoryLines(lines: readonly string[]): string {
  let merged = words(lines[0] ?? '');
  for (const line of lines.slice(1)) {
    let rest = words(line);
    let shared = 0;
    while (shared < rest.length && shared < merged.length && wordKey(rest[shared]!) === wordKey(merged[shared]!)) shared++;
    rest = rest.slice(shared);
    if (shared > 0) while (rest.length > 1 && STOPWORDS.has(wordKey(rest[0]!))) rest = rest.slice(1);
    const restKey = itemKey(rest.join(' '));
    if (restKey === '' || itemKey(merged.join(' ')).includes(restKey)) continue;
    const last = merged.length - 1;
    merged[last] = `${merged[last]!.replace(/[.;,]$/, '')},`;
    merged = [...merged, ...rest];
  }
  return merged.join(' ');
}

/** Lines sharing a token with more than this many others do not count it (too common to mean similar). */
const COMMON_TOKEN_LINES = 50;

/**
 * Augment memory compression, deterministically: duplicates removed (also those a `recent` memory
 * already says), then the most similar lines (word overlap, Jaccard) merged into one line
 * (`mergeMemoryLines`) until at most `targetLines` remain; lines with nothing in common are merged
 * with their neighbour, oldest first. Order of first mention kept.
 */
export function compressMemories(text: string, targetLines?: number, recent: readonly string[] = []): string[] {
  const lines = withoutRecent(memoryLines(text), recent);
  const target = targetLines !== undefined && Number.isFinite(targetLines) ? Math.max(1, Math.floor(targetLines)) : undefined;
  if (target === undefined || lines.length <= target) return lines;
  const tokens = lines.map(memoryTokens);
  const byToken = new Map<string, number[]>();
  tokens.forEach((set, index) => set.forEach((token) => byToken.set(token, [...(byToken.get(token) ?? []), index])));
  const shared = new Map<number, number>();
  for (const members of byToken.values()) {
    if (members.length > COMMON_TOKEN_LINES) continue;
    for (let a = 0; a < members.length; a++) {
      for (let b = a + 1; b < members.length; b++) {
        const key = members[a]! * lines.length + members[b]!;
        shared.set(key, (shared.get(key) ?? 0) + 1);
      }
    }
  }
  const edges = [...shared.entries()].map(([key, common]) => {
    const i = Math.floor(key / lines.length);
    const j = key % lines.length;
    return { i, j, similarity: common / (tokens[i]!.size + tokens[j]!.size - common) };
  }).sort((x, y) => y.similarity - x.similarity || x.i - y.i || x.j - y.j);
  const parent = lines.map((_, index) => index);
  const find = (index: number): number => {
    while (parent[index] !== index) index = parent[index] = parent[parent[index]!]!;
    return index;
  };
  let groups = lines.length;
  for (const edge of edges) {
    if (groups <= target) break;
    const a = find(edge.i);
    const b = find(edge.j);
    if (a === b) continue;
    parent[Math.max(a, b)] = Math.min(a, b);
    groups--;
  }
  const clusters = new Map<number, number[]>();
  lines.forEach((_, index) => {
    const root = find(index);
    clusters.set(root, [...(clusters.get(root) ?? []), index]);
  });
  let ordered = [...clusters.values()].sort((a, b) => a[0]! - b[0]!);
  // Nothing left in common: merge the shortest pair of neighbours (oldest first on ties).
  const size = (members: number[]): number => members.reduce((sum, index) => sum + lines[index]!.length, 0);
  while (ordered.length > target) {
    let best = 0;
    for (let k = 1; k + 1 < ordered.length; k++) {
      if (size(ordered[k]!) + size(ordered[k + 1]!) < size(ordered[best]!) + size(ordered[best + 1]!)) best = k;
    }
    ordered = [...ordered.slice(0, best), [...ordered[best]!, ...ordered[best + 1]!], ...ordered.slice(best + 2)];
  }
  return ordered.map((members) => mergeMemoryLines(members.map((index) => lines[index]!)));
}
