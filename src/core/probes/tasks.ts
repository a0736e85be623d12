/**
 * Task probes: each real user request (kind 'request'), so the replay can ask whether the latest
 * request among the removed entries survived. A message is a request when `realUserText` accepts
 * it (not harness text, tool results, slash-command echoes or interruption markers) and it has at
 * least one content word: "continue", "ok" or "yes do it" ask nothing new and add no probe, nor
 * do acknowledgements and closings ("thank you", "ok great", "okay, sounds good", "that's all I needed").
 * Needles: the most salient content words (identifiers first, then longer words) of the message's
 * first `NEEDLE_CHARS` normalized characters (the request comes first; a pasted log after it would
 * spread the needles past one span), at most 6, as one group.
 */
import type { Entry } from '../journal/entry.ts';
import { makeProbe } from './make.ts';
import { contentNeedles, needleSource, normalizeForMatch } from './normalize.ts';
import { realUserText, withoutCode } from './sources.ts';
import type { Probe } from './types.ts';

/** Words that only steer the conversation: a message made of these alone is not a request. */
const CHATTER = new Set(['continue', 'proceed', 'ahead', 'thanks', 'thank', 'cool', 'nice', 'perfect', 'fine', 'agreed', 'correct', 'exactly', 'done', 'retry', 'again', 'help', 'much', 'appreciate', 'appreciated', 'welcome', 'bye', 'goodbye', 'awesome', 'wonderful', 'lot', 'sounds', 'alright', 'understood', 'noted', 'excellent', 'fantastic', 'amazing', 'lovely', 'brilliant', 'super', 'cheers', 'needed', 'wow', 'yay']);

/** Task probes of the entries (see the module comment). */
export function taskProbes(entries: readonly Entry[]): Probe[] {
  const probes: Probe[] = [];
  entries.forEach((entry, index) => {
    const text = realUserText(entry);
    if (text === undefined) return;
    const needles = contentNeedles(needleSource(normalizeForMatch(withoutCode(text).slice(0, 4000))), 6, CHATTER);
    if (needles.length === 0) return;
    probes.push(makeProbe('task', 'request', text, { entry, index }, [needles]));
  });
  return probes;
}
