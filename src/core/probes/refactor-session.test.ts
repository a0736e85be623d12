// Probe rules read off a long refactoring session (public/samples/pi/before-compaction.jsonl, see
// gold/pi-before-compaction.gold.json), each on the kind of snippet that showed it: files moved and
// recreated, commands run from a `cd` directory, a monorepo's root check, steering without a
// keyword, a pasted JSONL record, the user's own `!cmd`, and choices put as design statements.
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, type Spec } from '../compaction/testing.ts';
import type { Entry } from '../journal/entry.ts';
import { extractProbes } from './extract.ts';
import { shellEffects } from './shell.ts';
import type { Probe } from './types.ts';

const build = (specs: Spec[]): Entry[] => linkEntries(makeEntries(specs));
const probesOf = (specs: Spec[], category: string): Probe[] => extractProbes(build(specs)).filter((probe) => probe.category === category);
const brief = (probes: readonly Probe[]): string[] => probes.map((probe) => `${probe.kind} ${probe.text}`).sort();
const bash = (id: string, command: string, output = ''): Spec[] => [
  { assistant: '', calls: [{ id, name: 'bash', input: { command } }] },
  { tool: output, callId: id },
];

describe('shell effects', () => {
  it('skips comments, reads paths from the cd directory and follows files moved into a directory', () => {
    const script = ['cd packages/app/src', '# config -> utils/config', "sed -i '' 's|a|b|g' index.ts", 'mv config.ts shell.ts utils/', 'mv tools core/', 'cd ../test && rm old.test.ts'].join('\n');
    expect(shellEffects(script)).toEqual([
      { path: 'packages/app/src/index.ts', kind: 'modified' },
      { path: 'packages/app/src/config.ts', kind: 'deleted' },
      { path: 'packages/app/src/utils/config.ts', kind: 'created' },
      { path: 'packages/app/src/shell.ts', kind: 'deleted' },
      { path: 'packages/app/src/utils/shell.ts', kind: 'created' },
      { path: 'packages/app/test/old.test.ts', kind: 'deleted' },
    ]);
    expect(shellEffects('cd /repo/src && mv utils/config.ts .')).toEqual([
      { path: '/repo/src/utils/config.ts', kind: 'deleted' },
      { path: '/repo/src/config.ts', kind: 'created' },
    ]);
  });
});

describe('artifacts by what they are at the end', () => {
  it('states a file replaced in place as modified, one removed as deleted, one removed and written again as created', () => {
    const probes = probesOf(
      [
        { user: 'swap in the new entry point' },
        ...bash('a', "cd /repo/src && sed -i '' 's/x/y/' main.ts"),
        ...bash('b', 'cp /repo/src/main.ts /repo/src/main-new.ts'),
        ...bash('c', 'rm /repo/src/main.ts /repo/src/old.ts && mv /repo/src/main-new.ts /repo/src/main.ts'),
        { assistant: '', calls: [{ id: 'd', name: 'write', input: { path: '/repo/src/mode.ts', content: 'x' } }] },
        { tool: 'ok', callId: 'd' },
        ...bash('e', 'rm /repo/src/mode.ts'),
        { assistant: '', calls: [{ id: 'f', name: 'write', input: { path: '/repo/src/mode.ts', content: 'y' } }] },
        { tool: 'ok', callId: 'f' },
        ...bash('g', "sed -i '' 's/a/b/' /repo/src/gone.ts && rm /repo/src/gone.ts"),
        { assistant: '', calls: [{ id: 'h', name: 'read', input: { path: '/repo' } }] },
      ],
      'artifact',
    );
    expect(brief(probes)).toEqual(['deleted src/gone.ts', 'deleted src/main-new.ts', 'deleted src/old.ts', 'created src/mode.ts', 'modified src/main.ts'].sort());
  });
});

describe('a monorepo check', () => {
  it("resolves a package's failed type check when the root check passes", () => {
    const probes = probesOf(
      [
        { user: 'fix the types' },
        { assistant: '', calls: [{ id: 'w', name: 'write', input: { path: '/w/mono/packages/app/src/a.ts', content: 'x' } }] },
        { tool: 'ok', callId: 'w' },
        ...bash('a', 'cd /w/mono/packages/app && npx tsgo --noEmit 2>&1 | head -80', "src/a.ts(3,1): error TS2304: Cannot find name 'x'."),
        ...bash('b', 'cd /w/mono && npm run check 2>&1 | tail -5', 'Checked 238 files in 120ms. No fixes applied.'),
      ],
      'error',
    );
    expect(probes.map((probe) => probe.kind)).toEqual(['resolved']);
  });
});

describe('steering without a rule keyword', () => {
  it('takes "I would only want", "I actually want you to:" with its list, "slight steering", protests; not a bare "wtf"', () => {
    const probes = probesOf(
      [
        { user: 'i would only want e2e tests for AgentSession, anything else is useless.' },
        { user: 'i actually want you to:\n\n- copy the components to modes/interactive, so the old code still works\n- keep main-new.ts in src/' },
        { user: 'slight steering: why does unsubscribe clear the event listeners? they should still be there, no?' },
        { user: "wait, this doesn't look right to me? why would we queue and then append?" },
        { user: 'why do you go 100 lines at a time you idiot ...' },
        { user: 'wtf' },
      ],
      'constraint',
    );
    expect(probes.map((probe) => probe.entryIndex)).toEqual([0, 1, 2, 3, 4]);
    expect(probes[1]!.text).toContain('copy the components to modes/interactive');
  });
});

describe("what the user did not type as a request", () => {
  it("reads no task from pi's record of the user's own `!ls`, nor from a bare wow", () => {
    const entries = build([{ user: '$ ls\nAGENTS.md\npackage.json' }, { user: 'wow' }, { user: 'what did i just execute?' }]);
    entries[0]!.sourceType = 'message/bashExecution';
    expect(extractProbes(entries).filter((probe) => probe.category === 'task').map((probe) => probe.text)).toEqual(['what did i just execute?']);
  });

  it('reads no identifier from a pasted JSONL record', () => {
    const record = '{"type":"message","timestamp":"2025-12-09T00:20:16.036Z","message":{"role":"bashExecution","command":"open pi-session.html","exitCode":0}}';
    expect(probesOf([{ user: `then we need to tackle this bash issue in agent-session.ts:\n\n${record}\n${record}` }], 'identifier').map((probe) => probe.text)).toEqual(['agent-session.ts']);
  });
});

describe('choices put as design statements', () => {
  it('takes "should only …, not", "no need for", "the biggest win", a recommendation, "better UX would be:", "… instead"', () => {
    const assistant = [
      "`unsubscribeAll()` should only disconnect from the agent, not clear the user's listeners.",
      "I'm thinking leave it since it's the old code we're keeping for reference.",
      'No need for separate hide methods or tracking selector instances.',
      'The biggest win would be #1 (consolidating the two render methods).',
      '**Recommendation:** Option A for now (simple and safe).',
      'Better UX would be:\n1. If streaming, show the bash result in the pending area\n2. On `agent_end`, move it to the chat',
      '1. Remove `agent_end` flush - flush on `prompt()` instead',
      'If you need further assistance, I recommend contacting a human agent.',
      'It falls back to X instead of using Y.',
    ].join('\n');
    const probes = probesOf([{ user: 'go' }, { assistant }], 'decision');
    expect(probes).toHaveLength(7);
    expect(probes[5]!.text).toContain('show the bash result in the pending area');
  });
});
