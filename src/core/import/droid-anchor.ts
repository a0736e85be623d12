/**
 * Where a Factory Droid compaction's kept history starts. A `compaction_state` line Droid writes
 * when it compacts a session in place names in `anchorMessage` (`{id, index}`) the last message its
 * summary replaces: `id` is that message's id, `index` its position among the session's message
 * lines, and `removedCount` is `index + 1`. Droid loads the session in file order and gives the
 * model the summary, then every message after the anchor, less the tool results right after it
 * (their calls are in the summary). So the first kept entry is the first entry of the first message
 * after the anchor that is not only tool results; none when the anchor is the last message before
 * the compaction. A compaction into a new session names no anchor: its file holds nothing before it.
 */
import { isRecord, str } from './builder.ts';

/** A store message as read, in file order: the first entry it became and whether it was only tool results. */
interface ReadMessage {
  firstEntryId: string;
  toolOnly: boolean;
}

/** What an `anchorMessage` resolves to: the first kept entry (or none kept), or why it names nothing usable. */
export type AnchorResolution = { firstKeptEntryId?: string } | { problem: string };

export class DroidAnchors {
  private readonly messages: ReadMessage[] = [];
  /** Message id -> its position in `messages` (the first line that had the id). */
  private readonly positions = new Map<string, number>();

  /** Records a store message that became entries (`id` is the line's own message id, when it has one). */
  message(id: string | undefined, firstEntryId: string, toolOnly: boolean): void {
    if (id !== undefined && !this.positions.has(id)) this.positions.set(id, this.messages.length);
    this.messages.push({ firstEntryId, toolOnly });
  }

  /** The kept history of a `compaction_state` line whose `anchorMessage` field is `anchor` (present). */
  resolve(anchor: unknown): AnchorResolution {
    const id = isRecord(anchor) ? str(anchor.id) : undefined;
    if (id === undefined) return { problem: `anchorMessage is ${describe(anchor)}, expected {"id", "index"} naming the last message the summary replaces` };
    const at = this.positions.get(id);
    if (at === undefined) return { problem: `anchorMessage ${JSON.stringify(id)} names no earlier message` };
    let next = at + 1;
    while (next < this.messages.length && this.messages[next]!.toolOnly) next++;
    const kept = this.messages[next];
    return kept ? { firstKeptEntryId: kept.firstEntryId } : {};
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (isRecord(value)) return `an object without a string "id" (keys: ${Object.keys(value).slice(0, 6).join(', ') || 'none'})`;
  return `${typeof value} ${JSON.stringify(value)}`;
}
