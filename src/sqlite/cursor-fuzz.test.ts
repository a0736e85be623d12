/**
 * Import fuzzing over the conversations of the Cursor chat store sample, as the document fuzz does
 * for the other document formats: bubbles deleted, duplicated, replaced by other JSON values, keys
 * removed or given values of another type. The import never throws anything but its own errors,
 * keeps the format, reports every problem at a line of the document, and every untouched bubble
 * that made an entry still makes one.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isRecord } from '../core/import/builder.ts';
import { importText } from '../core/import/run.ts';
import { readCursorDatabase } from './cursor-db.ts';

const store = await readCursorDatabase(readFileSync(new URL('../../public/samples/cursor/state.vscdb', import.meta.url)), 'state.vscdb');

type Mutation =
  | { op: 'delete'; at: number }
  | { op: 'duplicate'; at: number }
  | { op: 'replace'; at: number; value: unknown }
  | { op: 'drop-key'; at: number; key: number }
  | { op: 'retype-key'; at: number; key: number; value: unknown };
const junk = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 8 }), fc.constant([]), fc.constant({}));
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: junk }),
  fc.record({ op: fc.constant('drop-key' as const), at: fc.nat(), key: fc.nat() }),
  fc.record({ op: fc.constant('retype-key' as const), at: fc.nat(), key: fc.nat(), value: junk }),
);

describe('Cursor composer import fuzzing over the chat store sample', () => {
  for (const composer of store.composers) {
    const { conversation, ...rest } = composer.document;
    const made = new Set(importText(JSON.stringify(composer.document, null, 1)).entries.map((entry) => entry.id));

    it(`never throws, keeps the format and every untouched bubble: ${composer.name}`, () => {
      fc.assert(
        fc.property(fc.array(mutation, { maxLength: 6 }), fc.constantFrom(0, 1, 2), (mutations, indent) => {
          const slots = conversation.map((bubble) => ({ bubble: structuredClone(bubble) as unknown, intact: true }));
          for (const m of mutations) {
            if (slots.length === 0) break;
            const at = m.at % slots.length;
            const slot = slots[at]!;
            if (m.op === 'delete') slots.splice(at, 1);
            else if (m.op === 'duplicate') slots.splice(at, 0, { bubble: structuredClone(slot.bubble), intact: false });
            else if (m.op === 'replace') slots[at] = { bubble: m.value, intact: false };
            else if (isRecord(slot.bubble)) {
              const key = Object.keys(slot.bubble)[m.key % Math.max(1, Object.keys(slot.bubble).length)];
              if (key === undefined) continue;
              if (m.op === 'drop-key') delete slot.bubble[key];
              else slot.bubble[key] = m.value;
              slot.intact = false;
            }
          }
          const survivors = slots.filter((slot) => slot.intact && isRecord(slot.bubble) && made.has(String(slot.bubble.bubbleId)));
          if (survivors.length === 0) return;
          const written = JSON.stringify({ ...rest, conversation: slots.map((slot) => slot.bubble) }, null, indent);
          const result = importText(written);
          expect(result.format).toBe('cursor');
          const lines = written.split('\n').length;
          for (const issue of result.issues) expect(issue.line >= 1 && issue.line <= lines, `${issue.line}: ${issue.message}`).toBe(true);
          const ids = result.entries.map((entry) => entry.id);
          for (const slot of survivors) {
            const id = String((slot.bubble as Record<string, unknown>).bubbleId);
            expect(ids.some((entryId) => entryId === id || entryId.startsWith(`${id}#`)), id).toBe(true);
          }
        }),
        { numRuns: 60 },
      );
    });
  }
});
