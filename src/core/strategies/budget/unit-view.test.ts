/**
 * Budget's unit view, with tool chains kept per branch as it grows, equals the units `trimUnits`
 * splits from scratch at every length of a growing branch: linked and unlinked tool pairs, links to
 * entries that come later, parallel calls, pins (flagged and chosen), system entries, injected user
 * text, and a repeated entry id (split from scratch).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, makeInput, type Spec } from '../../compaction/testing.ts';
import type { Entry } from '../../journal/entry.ts';
import { unitView, type UnitView } from './unit-view.ts';
import { trimUnits } from './units.ts';

type Step =
  | { kind: 'user'; injected: boolean }
  | { kind: 'calls'; n: number }
  | { kind: 'result'; late: boolean; unlinked: boolean }
  | { kind: 'text' }
  | { kind: 'system' }
  | { kind: 'pin' }
  | { kind: 'repeat' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('user' as const), injected: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('calls' as const), n: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('result' as const), late: fc.boolean(), unlinked: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('text' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('system' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pin' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const) }) },
);

function build(steps: readonly Step[], repeats: boolean): { entries: Entry[]; pins: string[] } {
  const specs: Spec[] = [];
  const open: string[] = [];
  const unlinked = new Set<number>();
  const pinnedAt: number[] = [];
  const repeatAt: number[] = [];
  let call = 0;
  for (const step of steps) {
    if (step.kind === 'user') specs.push({ user: `ask ${specs.length}` });
    else if (step.kind === 'calls') {
      const ids = Array.from({ length: step.n }, () => `c${call++ % 12}`);
      open.push(...ids);
      specs.push({ assistant: '', calls: ids.map((id) => ({ id, name: 'read', input: { path: id } })) });
    } else if (step.kind === 'result') {
      const id = step.late ? open.shift() : open.pop();
      if (id === undefined) continue;
      if (step.unlinked) unlinked.add(specs.length);
      specs.push({ tool: `result of ${id} `.repeat(3), callId: id });
    } else if (step.kind === 'text') specs.push({ assistant: `text ${specs.length}` });
    else if (step.kind === 'system') specs.push({ system: 'note' });
    else if (step.kind === 'pin') pinnedAt.push(specs.length - 1);
    else if (repeats) repeatAt.push(specs.length - 1);
  }
  const entries = linkEntries(makeEntries(specs));
  steps.forEach((step, k) => {
    if (step.kind === 'user' && step.injected && entries[k]?.role === 'user') entries[k]!.flags = { injected: true };
  });
  for (const i of unlinked) {
    for (const block of entries[i]!.blocks) if (block.type === 'tool_result') delete block.callEntryId;
  }
  for (const i of pinnedAt) if (entries[i] && i % 2 === 0) entries[i]!.flags = { ...entries[i]!.flags, pinned: true };
  for (const i of repeatAt) if (entries[i] && i > 0) entries[i] = { ...entries[i]!, id: entries[i - 1]!.id };
  return { entries, pins: pinnedAt.filter((i) => i >= 0 && i % 2 === 1).map((i) => entries[i]!.id) };
}

/** The view `trimUnits` gives, in the same shape. */
function expected(units: ReturnType<typeof trimUnits>, n: number): Omit<UnitView, 'protectedBy'> & { protectedBy: Array<[number, string]> } {
  const root = new Int32Array(n);
  const tokens = new Float64Array(n);
  const size = new Int32Array(n);
  const tier = new Uint8Array(n);
  const protectedBy: Array<[number, string]> = [];
  for (const unit of units) {
    const r = unit.indices[0]!;
    for (const i of unit.indices) root[i] = r;
    tokens[r] = unit.tokens;
    size[r] = unit.indices.length;
    tier[r] = unit.tier;
    if (unit.protectedBy) protectedBy.push([r, unit.protectedBy]);
  }
  return { length: n, root, tokens, size, tier, protectedBy, roots: units.map((u) => u.indices[0]!) };
}

const shape = ({ next: _next, order: _order, ...view }: UnitView) => ({ ...view, protectedBy: [...view.protectedBy].sort((a, b) => a[0] - b[0]) });

/** Each unit's entries read by following `next` from its root (when the view lists them). */
function members(view: UnitView): number[][] | undefined {
  const { next } = view;
  if (!next) return undefined;
  return view.roots.map((root) => {
    const list: number[] = [];
    for (let i = root; i >= 0; i = next[i]!) list.push(i);
    return list;
  });
}

describe('budget unit view', () => {
  it('equals the units split from scratch at every length of a growing branch', () => {
    fc.assert(fc.property(fc.array(stepArb, { minLength: 1, maxLength: 60 }), fc.boolean(), fc.nat(8), (steps, repeats, keepRecent) => {
      const { entries: all, pins } = build(steps, repeats);
      const pinned = new Set(pins);
      const live: Entry[] = [];
      for (const entry of all) {
        live.push(entry);
        const input = { ...makeInput(live), pinned };
        expect(shape(unitView(input, keepRecent))).toEqual(expected(trimUnits(input, keepRecent), live.length));
      }
    }), { numRuns: 200 });
  });

  it('grows its cached units with the branch (one count index, as a replay reads) and equals the units split from scratch', () => {
    fc.assert(fc.property(fc.array(stepArb, { minLength: 1, maxLength: 60 }), fc.boolean(), fc.nat(8), (steps, repeats, keepRecent) => {
      const { entries: all, pins } = build(steps, repeats);
      const { tokens } = makeInput(all);
      const pinned = new Set(pins);
      const live: Entry[] = [];
      for (const entry of all) {
        live.push(entry);
        const input = { ...makeInput(live), tokens, pinned };
        const view = unitView(input, keepRecent);
        const units = trimUnits(input, keepRecent);
        expect(shape(view)).toEqual(expected(units, live.length));
        expect(members(view) ?? units.map((u) => u.indices)).toEqual(units.map((u) => u.indices));
      }
    }), { numRuns: 200 });
  });

  it('splits its cached units again when a new entry joins two earlier units', () => {
    const entries = makeEntries([
      { user: 'go' },
      { assistant: '', calls: [{ id: 'x', name: 'read', input: {} }] },
      { assistant: '', calls: [{ id: 'x', name: 'read', input: {} }] },
      { tool: 'X', callId: 'x' },
    ]);
    const first = entries[1]!.blocks[0]!;
    if (first.type === 'tool_call') first.resultEntryId = entries[3]!.id;
    const { tokens } = makeInput(entries);
    const live = entries.slice(0, 3);
    const before = unitView({ ...makeInput(live), tokens }, 0);
    expect(before.roots).toEqual([0, 1, 2]);
    expect(before.tokens[2]).toBe(tokens.countAt(2));
    live.push(entries[3]!);
    const view = unitView({ ...makeInput(live), tokens }, 0);
    expect([...view.root]).toEqual([0, 1, 1, 1]);
    expect(view.roots).toEqual([0, 1]);
    expect(view.tokens[1]).toBe(tokens.range(1, 3));
    expect(view.tokens[2]).toBe(0);
  });

  it('joins a call to a result that comes later by its linked id', () => {
    const entries = linkEntries(makeEntries([
      { user: 'go' },
      { assistant: '', calls: [{ id: 'a', name: 'read', input: {} }, { id: 'b', name: 'read', input: {} }] },
      { tool: 'A', callId: 'a' },
      { user: 'and?' },
      { tool: 'B', callId: 'b' },
    ]));
    const live = entries.slice(0, 4);
    expect(unitView(makeInput(live), 0).roots).toEqual([0, 1, 3]);
    live.push(entries[4]!);
    const view = unitView(makeInput(live), 0);
    expect(view.roots).toEqual([0, 1, 3]);
    expect([...view.root]).toEqual([0, 1, 1, 3, 1]);
  });

  it('joins a call to its linked result when the result names no call and its call id was reused', () => {
    const entries = makeEntries([
      { user: 'go' },
      { assistant: '', calls: [{ id: 'x', name: 'read', input: {} }] },
      { assistant: '', calls: [{ id: 'x', name: 'read', input: {} }] },
      { tool: 'X', callId: 'x' },
    ]);
    // The first call names its result; the result names no call (it pairs with the latest 'x').
    const first = entries[1]!.blocks[0]!;
    if (first.type === 'tool_call') first.resultEntryId = entries[3]!.id;
    const live = entries.slice(0, 3);
    expect(unitView(makeInput(live), 0).roots).toEqual([0, 1, 2]);
    live.push(entries[3]!);
    const input = makeInput(live);
    expect([...unitView(input, 0).root]).toEqual([0, 1, 1, 1]);
    expect(trimUnits(input, 0).map((u) => u.indices)).toEqual([[0], [1, 2, 3]]);
  });
});
