/**
 * Writes public/samples/cursor/state.vscdb: a small Cursor chat store built with sql.js in the
 * shapes Cursor's global `state.vscdb` uses (docs/formats.md, Cursor chat store), since no real
 * public one could be used. Tables `ItemTable` and `cursorDiskKV` (key TEXT UNIQUE ON CONFLICT
 * REPLACE, value BLOB); in `cursorDiskKV`, `composerData:<composerId>` (a conversation:
 * `fullConversationHeadersOnly` bubble headers, or the older inline `conversation`) and
 * `bubbleId:<composerId>:<bubbleId>` (one message: `type` 1 user / 2 assistant, `text`, `thinking`,
 * `toolFormerData` with the call and its result, `tokenCount`). Every value is made up here; the
 * file holds no key, token or path of a real user.
 *
 *   npx tsx scripts/make-cursor-state-vscdb.ts [out]
 */
import { writeFileSync } from 'node:fs';
import initSqlJs from 'sql.js';

const out = process.argv[2] ?? 'public/samples/cursor/state.vscdb';

const AGENT = 'a1b2c3d4-0000-4000-8000-000000000001';
const SUBAGENT = 'a1b2c3d4-0000-4000-8000-000000000002';
const LEGACY = 'a1b2c3d4-0000-4000-8000-000000000003';
const EMPTY = 'a1b2c3d4-0000-4000-8000-000000000004';
const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

const tool = (toolCallId: string, name: string, args: unknown, result: unknown, status = 'completed') => ({
  tool: 15, name, toolCallId, status, rawArgs: JSON.stringify(args), params: JSON.stringify(args), result: JSON.stringify(result),
});

/** The agent conversation's bubbles, in order: [bubbleId, bubble]. */
const agentBubbles: Array<[string, Record<string, unknown>]> = [
  ['b01', { _v: 3, type: 1, bubbleId: 'b01', text: 'The date parser in src/parse.ts fails on "2026-02-30". Find why and fix it.', createdAt: at(0), richText: '{"root":{}}', modelInfo: { modelName: 'claude-4-sonnet' } }],
  ['b02', { _v: 3, type: 2, bubbleId: 'b02', text: '', thinking: { text: 'I should read the parser first.', signature: 'sig-1' }, createdAt: at(4), toolFormerData: tool('toolu_01', 'read_file', { target_file: 'src/parse.ts' }, { contents: 'export function parse(s: string) {\n  return new Date(s);\n}\n' }), tokenCount: { inputTokens: 5120, outputTokens: 88 } }],
  ['b03', { _v: 3, type: 2, bubbleId: 'b03', text: '', createdAt: at(7), toolFormerData: tool('toolu_02', 'run_terminal_cmd', { command: 'npx vitest run src/parse.test.ts' }, { output: 'FAIL src/parse.test.ts > rejects 2026-02-30\nexpected Invalid Date, got 2026-03-02', exitCode: 1 }, 'error'), tokenCount: { inputTokens: 5400, outputTokens: 40 } }],
  ['b04', { _v: 3, type: 2, bubbleId: 'b04', text: 'I will ask a subagent to list every caller of parse() while I fix it.', createdAt: at(9), toolFormerData: tool('toolu_03', 'task', { description: 'Find callers of parse()', prompt: 'List every file that calls parse() from src/parse.ts.' }, { summary: 'src/cli.ts and src/import.ts call parse().' }), tokenCount: { inputTokens: 5600, outputTokens: 60 } }],
  ['b05', { _v: 3, type: 2, bubbleId: 'b05', text: '', createdAt: at(15), toolFormerData: tool('toolu_04', 'edit_file', { target_file: 'src/parse.ts', instructions: 'Reject dates that roll over', code_edit: 'if (d.getUTCDate() !== day) return undefined;' }, { diff: '+  if (d.getUTCDate() !== day) return undefined;' }), tokenCount: { inputTokens: 5900, outputTokens: 120 } }],
  ['b06', { _v: 3, type: 2, bubbleId: 'b06', text: 'Fixed: `new Date()` rolls 2026-02-30 over to March 2, so `parse` now checks the day it got back and returns undefined for a date that does not exist. The test passes.', createdAt: at(21), tokenCount: { inputTokens: 6200, outputTokens: 95 } }],
  ['b07', { _v: 3, type: 1, bubbleId: 'b07', text: 'Thanks. Add a changelog line too.', createdAt: at(60) }],
  ['b08', { _v: 3, type: 2, bubbleId: 'b08', text: 'Added to CHANGELOG.md: "parse() rejects dates that do not exist".', createdAt: at(66), tokenCount: { inputTokens: 6500, outputTokens: 30 } }],
];

const subagentBubbles: Array<[string, Record<string, unknown>]> = [
  ['s01', { _v: 3, type: 1, bubbleId: 's01', text: 'List every file that calls parse() from src/parse.ts.', createdAt: at(10) }],
  ['s02', { _v: 3, type: 2, bubbleId: 's02', text: '', createdAt: at(11), toolFormerData: tool('toolu_s1', 'grep_search', { query: 'parse(' }, { matches: ['src/cli.ts:12', 'src/import.ts:40'] }), tokenCount: { inputTokens: 900, outputTokens: 20 } }],
  ['s03', { _v: 3, type: 2, bubbleId: 's03', text: 'src/cli.ts and src/import.ts call parse().', createdAt: at(13), tokenCount: { inputTokens: 1000, outputTokens: 15 } }],
];

const composers: Array<Record<string, unknown>> = [
  {
    _v: 10, composerId: AGENT, name: 'Fix the date parser', createdAt: T0, lastUpdatedAt: T0 + 66_000, status: 'completed', unifiedMode: 'agent', isAgentic: true,
    modelConfig: { modelName: 'claude-4-sonnet', maxMode: false }, subComposerIds: [SUBAGENT], text: '', context: { fileSelections: [] },
    fullConversationHeadersOnly: agentBubbles.map(([bubbleId, bubble]) => ({ bubbleId, type: bubble.type })),
  },
  {
    _v: 10, composerId: SUBAGENT, name: 'Find callers of parse()', createdAt: T0 + 10_000, lastUpdatedAt: T0 + 13_000, status: 'completed', unifiedMode: 'agent', isAgentic: true,
    modelConfig: { modelName: 'claude-4-sonnet' }, fullConversationHeadersOnly: subagentBubbles.map(([bubbleId, bubble]) => ({ bubbleId, type: bubble.type })),
  },
  {
    // The older form: the bubbles inline in `conversation`.
    _v: 3, composerId: LEGACY, name: 'Explain the build script', createdAt: T0 - 86_400_000, lastUpdatedAt: T0 - 86_300_000, status: 'completed',
    conversation: [
      { type: 1, bubbleId: 'l01', text: 'What does scripts/build.sh do?' },
      { type: 2, bubbleId: 'l02', text: 'It compiles the TypeScript with tsc, then bundles src/main.ts with esbuild into dist/.', tokenCount: { inputTokens: 0, outputTokens: 0 } },
    ],
  },
  // Opened and closed without a message: Cursor keeps such drafts.
  { _v: 10, composerId: EMPTY, createdAt: T0 + 100_000, status: 'none', text: '', fullConversationHeadersOnly: [], conversationMap: {} },
];

const SQL = await initSqlJs();
const db = new SQL.Database();
db.run('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
db.run('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
const item = db.prepare('INSERT INTO ItemTable VALUES (?, ?)');
item.run(['workbench.colorTheme', 'Default Dark Modern']);
item.run(['composer.composerHeaders', JSON.stringify({ allComposers: composers.map((c) => ({ composerId: c.composerId, name: c.name ?? '' })) })]);
item.free();
const kv = db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)');
for (const composer of composers) kv.run([`composerData:${String(composer.composerId)}`, JSON.stringify(composer)]);
for (const [bubbleId, bubble] of agentBubbles) kv.run([`bubbleId:${AGENT}:${bubbleId}`, JSON.stringify(bubble)]);
for (const [bubbleId, bubble] of subagentBubbles) kv.run([`bubbleId:${SUBAGENT}:${bubbleId}`, JSON.stringify(bubble)]);
kv.run([`checkpointId:${AGENT}:c1`, JSON.stringify({ files: [] })]);
kv.free();
writeFileSync(out, db.export());
db.close();
console.log(`wrote ${out}`);
