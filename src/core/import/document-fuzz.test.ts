/**
 * Import fuzzing over the real samples of the event-document formats (a JSON document whose list of
 * events or messages is the transcript): events deleted, duplicated, replaced by other JSON values,
 * keys removed or given values of another type. The import never throws anything but its own
 * errors, keeps the format, reports every problem at a line of the document, and every untouched
 * event that made an entry still makes one, or is reported by its place as a copy of an event read
 * before it (a mutated copy of it can come first and take what both carry: a model response is
 * written once, from the first event that names its call) (a byte-level fuzz is the JSONL fuzz test's job: one
 * bad byte refuses a whole JSON document, by line and column).
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isRecord } from './builder.ts';
import { importText } from './run.ts';
import type { FormatId } from './types.ts';

interface DocumentSample {
  path: string;
  format: FormatId;
  /** The event list inside the parsed document. */
  events: (doc: unknown) => unknown[];
  /** The entry id an event makes when it makes one, at this place in the list read (formats without ids number by place). */
  entryId: (event: Record<string, unknown>, place: number) => string | undefined;
  /**
   * Other formats the document may be read as once an event is changed: a Cline history whose
   * `<task>` message is gone is plain Anthropic messages.
   */
  alsoReadAs?: FormatId[];
  /** How an issue names the event at a position of the list. */
  place: (position: number) => string;
}

const SAMPLES: DocumentSample[] = [
  {
    path: 'public/samples/openhands/basic_gui_mode.json',
    format: 'openhands',
    events: (doc) => doc as unknown[],
    entryId: (event) => (typeof event.id === 'number' ? `e${event.id}` : undefined),
    place: (position) => `event ${position} `,
  },
  {
    path: 'public/samples/gemini-cli/pomodoro-timer.json',
    format: 'gemini-cli',
    events: (doc) => (doc as { messages: unknown[] }).messages,
    entryId: (message) => (typeof message.id === 'string' ? message.id : undefined),
    place: (position) => `messages[${position}] `,
  },
  {
    path: 'public/samples/gemini-cli/large.json',
    format: 'gemini-cli',
    events: (doc) => (doc as { messages: unknown[] }).messages,
    entryId: (message) => (typeof message.id === 'string' ? message.id : undefined),
    place: (position) => `messages[${position}] `,
  },
  {
    path: 'public/samples/opencode/sandbox-agent-messages.json',
    format: 'opencode',
    events: (doc) => doc as unknown[],
    entryId: (message) => (isRecord(message.info) && typeof message.info.id === 'string' ? message.info.id : undefined),
    place: (position) => `messages[${position}] `,
  },
  {
    path: 'public/samples/cline/1764201600000/api_conversation_history.json',
    format: 'cline',
    events: (doc) => doc as unknown[],
    entryId: (_message, place) => `m${place}`,
    place: (position) => `message ${position} `,
    alsoReadAs: ['anthropic'],
  },
];

type Mutation =
  | { op: 'delete'; at: number }
  | { op: 'duplicate'; at: number }
  | { op: 'replace'; at: number; value: unknown }
  | { op: 'drop-key'; at: number; key: number }
  | { op: 'retype-key'; at: number; key: number; value: unknown };

const junk = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 8 }), fc.constant([]), fc.constant({}), fc.array(fc.integer(), { maxLength: 3 }));
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: junk }),
  fc.record({ op: fc.constant('drop-key' as const), at: fc.nat(), key: fc.nat() }),
  fc.record({ op: fc.constant('retype-key' as const), at: fc.nat(), key: fc.nat(), value: junk }),
);

interface Slot {
  event: unknown;
  intact: boolean;
  origin: number;
}

function mutate(events: readonly unknown[], mutations: Mutation[]): Slot[] {
  const out: Slot[] = events.map((event, origin) => ({ event: structuredClone(event), intact: true, origin }));
  for (const m of mutations) {
    if (out.length === 0) break;
    const at = m.at % out.length;
    const slot = out[at]!;
    if (m.op === 'delete') out.splice(at, 1);
    else if (m.op === 'duplicate') out.splice(at, 0, { event: structuredClone(slot.event), intact: false, origin: -1 });
    else if (m.op === 'replace') out[at] = { event: m.value, intact: false, origin: -1 };
    else if (isRecord(slot.event)) {
      const keys = Object.keys(slot.event);
      const key = keys[m.key % Math.max(1, keys.length)];
      if (key === undefined) continue;
      if (m.op === 'drop-key') delete slot.event[key];
      else slot.event[key] = m.value;
      slot.intact = false;
    }
  }
  return out;
}

describe('document import fuzzing over the real samples', () => {
  for (const sample of SAMPLES) {
    const text = readFileSync(sample.path, 'utf8');
    const doc: unknown = JSON.parse(text);
    const events = sample.events(doc);
    const made = new Set(importText(text).entries.map((entry) => entry.id));

    it(`never throws, keeps the format and every untouched event: ${sample.path}`, () => {
      fc.assert(
        fc.property(fc.array(mutation, { maxLength: 6 }), fc.constantFrom(0, 1, 2), (mutations, indent) => {
          const slots = mutate(events, mutations);
          const list = slots.map((slot) => slot.event);
          const mutated = Array.isArray(doc) ? list : { ...(doc as Record<string, unknown>), messages: list };
          const written = JSON.stringify(mutated, null, indent);
          const survivors = slots.filter((slot) => slot.intact && made.has(sample.entryId(events[slot.origin] as Record<string, unknown>, slot.origin) ?? ''));
          if (survivors.length === 0) return;
          const result = importText(written);
          expect([sample.format, ...(sample.alsoReadAs ?? [])]).toContain(result.format);
          const lines = written.split('\n').length;
          for (const issue of result.issues) expect(issue.line >= 1 && issue.line <= lines, `${issue.line}: ${issue.message}`).toBe(true);
          const ids = result.entries.map((entry) => entry.id);
          for (const slot of survivors) {
            const id = sample.entryId(events[slot.origin] as Record<string, unknown>, slots.indexOf(slot))!;
            const kept = ids.some((entryId) => entryId === id || entryId.startsWith(`${id}#`));
            const place = sample.place(slots.indexOf(slot));
            const copy = result.issues.some((issue) => issue.kind === 'duplicate' && issue.message.startsWith(place));
            expect(kept || copy, `event ${slot.origin} (${id})`).toBe(true);
          }
        }),
        { numRuns: 60 },
      );
    });
  }
});
