/**
 * Which head exchanges augment's summarizer reads (A4): from the first to the last summarizable one
 * (pinned ones between them are read as context), then zee's second truncation by characters.
 */
import type { CompactionInput } from '../../compaction/types.ts';
import { isSystem } from './exchanges.ts';
import { fmt } from './format.ts';
import type { HistoryItem, HistoryView } from './history.ts';
import { truncateHead } from './truncate.ts';

type ExchangeItem = Extract<HistoryItem, { kind: 'exchange' }>;

/**
 * What the summarizer reads: the head exchanges from the first to the last summarizable one (pinned
 * ones in between are read as context but stay verbatim), then zee's cut (A4) by characters.
 */
export function summarizerRange(head: readonly HistoryItem[], entries: CompactionInput['entries'], view: HistoryView) {
  const exchanges = head.filter((item): item is ExchangeItem => item.kind === 'exchange');
  const first = exchanges.findIndex((item) => !item.exchange.pinned);
  let last = -1;
  exchanges.forEach((item, k) => { if (!item.exchange.pinned) last = k; });
  const sent = exchanges.slice(first, last + 1);
  const sentChars = sent.map((item) => {
    let c = 0;
    for (let i = item.exchange.start; i <= item.exchange.end; i++) if (!isSystem(entries[i]!)) c += view.charsOf(i);
    return c;
  });
  const zee = truncateHead(sentChars);
  // The last sent exchange is summarizable and zee always keeps it, so there is a first one to read.
  const fromItem = sent.slice(zee.start).find((item) => !item.exchange.pinned)!;
  const toItem = sent[sent.length - 1]!;
  const note = zee.startSegment === undefined ? undefined
    : `zee: the head is ${fmt(sentChars.reduce((a, b) => a + b, 0))} chars in ${zee.segments.length} segments of ${fmt(zee.segmentSize)}; the summarizer reads from segment ${zee.startSegment} (exchange ${zee.start + 1} of ${sent.length}); ${zee.start} older exchange${zee.start === 1 ? ' is' : 's are'} dropped from its input (A4).`;
  return { fromItem, toItem, sent, note };
}
