/**
 * Which folded blocks an iteration mentions (F7 implicit and error recall), without scanning every
 * block at every iteration: the blocks' file-like entities are indexed by their first word and by
 * their base name, so a lookup costs what the iteration says, not how long the history is. A block
 * whose importance fell below the recall bar is put to sleep (out of the mention lookups, still in
 * the error lookup) until a recall touches it: its importance only falls while nothing touches it,
 * so the blocks a mention can recall stay few however often their files come up.
 */
import type { FoldedBlock } from './types.ts';

/** A file-like entity: it has a dot or a slash ("src/app.ts", "README.md"; not "npm test"). */
const FILE_LIKE = /[./]/;
/** Characters around a word that are not part of a path. */
const WORD_SPLIT = /[\s"'`()[\]{}<>,;:|=]+/;

function baseName(entity: string): string {
  return entity.slice(entity.lastIndexOf('/') + 1);
}

/** The words of an iteration's (lower-cased) text, with trailing sentence dots removed. */
export function mentionWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const raw of text.split(WORD_SPLIT)) {
    const word = raw.replace(/\.+$/, '');
    if (word.length > 0) words.add(word);
  }
  return words;
}

export class MentionIndex {
  /** First word of each file-like entity (lower-cased) -> blocks holding it. */
  private readonly byWord = new Map<string, Set<FoldedBlock>>();
  /** Base name of each entity -> blocks holding it (error recall). */
  private readonly byBase = new Map<string, Set<FoldedBlock>>();

  private static put(map: Map<string, Set<FoldedBlock>>, key: string, block: FoldedBlock): void {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(block);
  }

  private static drop(map: Map<string, Set<FoldedBlock>>, key: string, block: FoldedBlock): void {
    const set = map.get(key);
    if (!set) return;
    set.delete(block);
    if (set.size === 0) map.delete(key);
  }

  /** One-word file-like entities (lower-cased) -> blocks: a word of the text is a mention as it is. */
  private readonly bySingle = new Map<string, Set<FoldedBlock>>();
  /** Exact file-like entities -> blocks (the iteration's touched files). */
  private readonly byExact = new Map<string, Set<FoldedBlock>>();

  /** Blocks out of the mention lookups (`sleep`), still in the error lookup. */
  private readonly asleep = new Set<FoldedBlock>();

  /** The mention lookups' keys of an entity (an entity without a dot or slash has none). */
  private mentionKeys(entity: string): Array<[Map<string, Set<FoldedBlock>>, string]> {
    if (!FILE_LIKE.test(entity)) return [];
    const lower = entity.toLowerCase();
    const first = lower.split(/\s+/)[0] ?? '';
    return [[first === lower ? this.bySingle : this.byWord, first], [this.byExact, entity]];
  }

  private putMentions(block: FoldedBlock): void {
    for (const entity of block.entities) for (const [map, key] of this.mentionKeys(entity)) MentionIndex.put(map, key, block);
  }

  private dropMentions(block: FoldedBlock): void {
    for (const entity of block.entities) for (const [map, key] of this.mentionKeys(entity)) MentionIndex.drop(map, key, block);
  }

  add(block: FoldedBlock): void {
    for (const entity of block.entities) MentionIndex.put(this.byBase, baseName(entity), block);
    this.putMentions(block);
  }

  remove(block: FoldedBlock): void {
    for (const entity of block.entities) MentionIndex.drop(this.byBase, baseName(entity), block);
    if (!this.asleep.delete(block)) this.dropMentions(block);
  }

  /**
   * Takes a block out of the mention lookups: a mention found it neither retrieved nor above the
   * recall bar, and only a recall touching it (`wake`) can change that, since its importance only
   * falls with time otherwise.
   */
  sleep(block: FoldedBlock): void {
    if (this.asleep.has(block)) return;
    this.asleep.add(block);
    this.dropMentions(block);
  }

  /** Puts a sleeping block back in the mention lookups (a recall touched it). */
  wake(block: FoldedBlock): void {
    if (this.asleep.delete(block)) this.putMentions(block);
  }

  /**
   * Blocks with a file-like entity the iteration touched (`files`, exact) or wrote in its text
   * (lower-cased; `words` are the text's words), in history order.
   */
  mentioned(files: readonly string[], text: string, words: ReadonlySet<string>): FoldedBlock[] {
    const found = new Set<FoldedBlock>();
    for (const file of files) for (const block of this.byExact.get(file) ?? []) found.add(block);
    for (const word of words) {
      for (const block of this.bySingle.get(word) ?? []) found.add(block);
      // An entity of several words ("python3 setup.py") is mentioned when the text holds all of it.
      for (const block of this.byWord.get(word) ?? []) {
        if (!found.has(block) && block.entities.some((e) => FILE_LIKE.test(e) && text.includes(e.toLowerCase()))) found.add(block);
      }
    }
    return [...found].sort((a, b) => a.from - b.from);
  }

  /** Blocks with an entity of the same base name as a path that was not found, in history order. */
  missing(path: string): FoldedBlock[] {
    return [...(this.byBase.get(baseName(path)) ?? [])].sort((a, b) => a.from - b.from);
  }
}
