import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Block, Entry, Role } from '../journal/entry.ts';
import { IterationIndex } from './iteration-index.ts';
import { iterationGroups, scanIterationGroups } from './sliding-window.ts';

/** One random entry: a role and blocks that pair by call id, by entry id (forward, backward, dangling) or not at all. */
const entrySpec = fc.record({
  role: fc.constantFrom<Role>('user', 'assistant', 'assistant', 'tool', 'system'),
  kind: fc.constantFrom('message', 'message', 'message', 'event'),
  blocks: fc.array(fc.record({
    type: fc.constantFrom('text', 'tool_call', 'tool_result'),
    callId: fc.integer({ min: 0, max: 6 }),
    /** Entry id the block names as its partner: an offset from its own position, or none. */
    partner: fc.option(fc.integer({ min: -8, max: 8 }), { nil: undefined }),
  }), { maxLength: 3 }),
});

function build(specs: ReadonlyArray<typeof entrySpec extends fc.Arbitrary<infer T> ? T : never>): Entry[] {
  return specs.map((spec, index) => {
    const blocks: Block[] = spec.blocks.map((b): Block => {
      const partner = b.partner === undefined ? undefined : `e${index + b.partner}`;
      if (b.type === 'tool_call') return { type: 'tool_call', callId: `c${b.callId}`, name: 'Read', input: {}, ...(partner ? { resultEntryId: partner } : {}) };
      if (b.type === 'tool_result') return { type: 'tool_result', callId: `c${b.callId}`, content: [{ type: 'text', text: 'out' }], isError: false, ...(partner ? { callEntryId: partner } : {}) };
      return { type: 'text', text: 'words' };
    });
    return {
      id: `e${index}`, index, parentId: index === 0 ? null : `e${index - 1}`, role: spec.role,
      kind: spec.kind as Entry['kind'], blocks, sourceType: 'test', line: index + 1,
    };
  });
}

describe('iteration index', () => {
  it('gives, after every appended entry, the groups a scan of that prefix gives', () => {
    fc.assert(
      fc.property(fc.array(entrySpec, { minLength: 1, maxLength: 40 }), (specs) => {
        const entries = build(specs);
        const index = new IterationIndex();
        for (let n = 1; n <= entries.length; n++) {
          const prefix = entries.slice(0, n);
          index.advance(prefix);
          expect(index.snapshot()).toEqual(scanIterationGroups(prefix));
          expect(index.iterations).toBe(scanIterationGroups(prefix).reduce((sum, g) => sum + g.count, 0));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('answers any prefix, in any order, through the shared cache', () => {
    fc.assert(
      fc.property(fc.array(entrySpec, { minLength: 1, maxLength: 30 }), fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), (specs, cuts) => {
        const entries = build(specs);
        for (const cut of cuts) {
          const prefix = entries.slice(0, 1 + (cut % entries.length));
          expect(iterationGroups(prefix)).toEqual(scanIterationGroups(prefix));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('starts over when the entries are not a continuation of what it read', () => {
    const entries = build([
      { role: 'user', kind: 'message', blocks: [] },
      { role: 'assistant', kind: 'message', blocks: [{ type: 'tool_call', callId: 1, partner: undefined }] },
      { role: 'tool', kind: 'message', blocks: [{ type: 'tool_result', callId: 1, partner: undefined }] },
    ]);
    expect(iterationGroups(entries)).toEqual(scanIterationGroups(entries));
    // Same root, same length, another last entry: a different branch.
    const other = [...entries.slice(0, 2), { ...entries[2]!, id: 'x', blocks: [{ type: 'text', text: 'no result' } as Block] }];
    expect(iterationGroups(other)).toEqual(scanIterationGroups(other));
  });
});
