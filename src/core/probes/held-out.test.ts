// Probe weaknesses found on sessions held out from the gold files, each as the snippet that showed
// it: a booking code the user typed is an identifier, a bare thanks is not a task, and a build
// error is resolved by a successful build of the same project spelled from another directory.
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, type Spec } from '../compaction/testing.ts';
import { extractProbes } from './extract.ts';
import type { Probe } from './types.ts';

const probesOf = (specs: Spec[], category: string): Probe[] => extractProbes(linkEntries(makeEntries(specs))).filter((probe) => probe.category === category);

describe('booking and reservation codes the user typed', () => {
  it('takes six-character codes with a digit, and all-letter ones named as a reservation or booking', () => {
    const probes = probesOf(
      [
        { user: 'Hi, my reservation is ZFA04Y and my user id is sofia_kim_7287.' },
        { user: 'I also want to cancel JG7FMM and 4WQ150, and my booking code is HATHAT.' },
        { user: 'The confirmation number is xk3p9q, sorry, I mean XK3P9Q.' },
      ],
      'identifier',
    );
    expect(probes.map((probe) => probe.text).sort()).toEqual(['4WQ150', 'HATHAT', 'JG7FMM', 'XK3P9Q', 'ZFA04Y', 'sofia_kim_7287'].sort());
  });

  it('does not read shouted words or acronyms as codes', () => {
    const probes = probesOf([{ user: 'PLEASE check the README and the SQLITE setup again, and the AWS key, it costs 40 USD' }], 'identifier');
    expect(probes.map((probe) => probe.text)).toEqual([]);
  });
});

describe('preferences and ids in customer-service conversations', () => {
  it("takes \"I'd prefer …\" and \"I'd like to use … first\" as constraints", () => {
    const probes = probesOf(
      [{ user: "Yes, please proceed. I'd prefer to pay with a gift card." }, { user: "I'd like to use any certificates first, then any gift cards, and cover the rest with my master card." }, { user: "I'd like to change my reservation." }],
      'constraint',
    );
    expect(probes.map((probe) => probe.kind)).toEqual(['prefer', 'prefer']);
    expect(probes.map((probe) => probe.text)).toEqual(["I'd prefer to pay with a gift card.", "I'd like to use any certificates first, then any gift cards, and cover the rest with my master card."]);
  });

  it('takes card and order numbers of 7 to 19 digits, not times, decimals or short counts', () => {
    const probes = probesOf([{ user: 'Could you please use Gift Card 6276644, then 7091239? It cost 1234.5678 at 10:30, order 12345 of 3 bags.' }], 'identifier');
    expect(probes.map((probe) => probe.text)).toEqual(['6276644', '7091239']);
  });

  it('reads an offer of help "while keeping" what the user asked as no decision', () => {
    const assistant = "Once you have the reservation ID, I'll be able to assist you with changing your reservation while keeping the same dates. I'll restore the old parser while keeping the new tests.";
    expect(probesOf([{ user: 'change my reservation' }, { assistant }], 'decision').map((probe) => probe.text)).toEqual(["I'll restore the old parser while keeping the new tests."]);
  });
});

describe('acknowledgements', () => {
  it('reads a bare thanks or "ok great" as no task, a request after it as one', () => {
    const probes = probesOf(
      [{ user: 'thank you' }, { user: 'Thanks!' }, { user: 'ok great' }, { user: "Thank you for your help! That's all I needed." }, { user: 'Great, thank you so much!' }, { user: 'Okay, sounds good.' }, { user: 'ok great, now add a --port flag' }],
      'task',
    );
    expect(probes.map((probe) => probe.text)).toEqual(['ok great, now add a --port flag']);
  });
});

describe('builds spelled from another directory', () => {
  const failure = (id: string, command: string): Spec[] => [
    { assistant: '', calls: [{ id, name: 'Bash', input: { command } }] },
    { tool: "src/app.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\nExit code 2", callId: id, error: true },
  ];
  const success = (id: string, command: string): Spec[] => [
    { assistant: '', calls: [{ id, name: 'Bash', input: { command } }] },
    { tool: 'vite v5.0.0 building for production...\n✓ built in 1.2s', callId: id },
  ];
  const statuses = (specs: Spec[]): string[] => probesOf(specs, 'error').map((probe) => probe.kind);

  it.each([
    ['cd web && npm run build', 'npm run build --prefix web'],
    ['npm --prefix web run build', 'cd web && npm run build'],
    ['cd /home/ana/shop/web && npm run build', 'cd web && npm run build'],
    ['cd ./web/ && npm run build', 'cd /home/ana/shop/web && npm run build 2>&1 | tail -5'],
    ['pnpm -C web build', 'cd web && pnpm run build'],
    ['yarn --cwd web build', 'cd web && yarn build'],
    ['make -C native', 'cd native && make'],
  ])('a failed `%s` is resolved by `%s`', (failed, passed) => {
    expect(statuses([{ user: 'build it' }, ...failure('a', failed), ...success('b', passed)])).toEqual(['resolved']);
  });

  it('is resolved by a passing check of a parent directory, not of a sibling or a subdirectory', () => {
    expect(statuses([{ user: 'build it' }, ...failure('a', 'cd /repo/packages/agent && npx tsc --noEmit'), ...success('b', 'cd /repo && npm run check')])).toEqual(['resolved']);
    expect(statuses([{ user: 'build it' }, ...failure('a', 'cd web && npm run build'), ...success('b', 'npm run build --prefix api')])).toEqual(['open']);
    expect(statuses([{ user: 'build it' }, ...failure('a', 'npm run build'), ...success('b', 'npm run build --prefix web')])).toEqual(['open']);
  });
});

describe('an app built from a request (OpenHands)', () => {
  it('reads the text editor tool by its command: create, view, str_replace', () => {
    const editor = (id: string, command: string, path: string): Spec[] => [
      { assistant: '', calls: [{ id, name: 'str_replace_editor', input: { command, path, file_text: 'x', old_str: 'a', new_str: 'b' } }] },
      { tool: 'ok', callId: id },
    ];
    const probes = probesOf([{ user: 'make the app' }, ...editor('a', 'create', '/workspace/app/index.html'), ...editor('b', 'view', '/workspace/app/README.md'), ...editor('c', 'str_replace', '/workspace/app/main.js')], 'artifact');
    expect(probes.map((probe) => `${probe.kind} ${probe.text}`).sort()).toEqual(['created app/index.html', 'modified app/main.js', 'read app/README.md']);
  });

  it('takes a "should" that rules something out as a constraint, not a plain wish or the speaker\'s own', () => {
    const probes = probesOf(
      [{ user: 'This should be a client-only app with no backend. The list should persist in localStorage. It should be fine. I should have no problem with that.' }],
      'constraint',
    );
    expect(probes.map((probe) => probe.text)).toEqual(['This should be a client-only app with no backend.']);
  });
});
