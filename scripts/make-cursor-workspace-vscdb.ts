/**
 * Writes public/samples/cursor/workspace/state.vscdb: a small workspace store of an older Cursor
 * (2024), built with sql.js, whose chat panel kept its tabs in the workspace's own `state.vscdb`:
 * table `ItemTable` (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB), key
 * `workbench.panel.aichat.view.aichat.chatdata` = `{tabs: [{tabId, chatTitle, lastSendTime,
 * bubbles: [{type: "user" | "ai", id, text}]}]}`, the shape public Cursor chat exporters read
 * (docs/formats.md, Cursor chat store), beside editor state Foldlab never reads. Every value is
 * made up here; the file holds no key, token or path of a real user.
 *
 *   npx tsx scripts/make-cursor-workspace-vscdb.ts [out]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import initSqlJs from 'sql.js';

const out = process.argv[2] ?? 'public/samples/cursor/workspace/state.vscdb';
const T0 = Date.parse('2024-05-14T10:00:00.000Z');

const chatdata = {
  tabs: [
    {
      tabId: '6f1c2a9e-0000-4000-8000-00000000000a',
      chatTitle: 'Retry failed uploads',
      lastSendTime: T0 + 95_000,
      bubbles: [
        { type: 'user', id: 'b-01', text: 'uploadFile() in src/upload.ts fails now and then on a flaky network. How do I retry it?' },
        { type: 'ai', id: 'b-02', text: 'Wrap the call in a loop that waits longer after each failure (exponential backoff):\n\n```ts\nfor (let attempt = 0; ; attempt++) {\n  try { return await uploadFile(file); }\n  catch (error) { if (attempt === 4) throw error; await sleep(2 ** attempt * 250); }\n}\n```' },
        { type: 'user', id: 'b-03', text: 'Should a 400 be retried too?' },
        { type: 'ai', id: 'b-04', text: 'No: a 4xx says the request itself is wrong and will fail again. Retry only network errors and 5xx answers.' },
      ],
    },
    {
      tabId: '6f1c2a9e-0000-4000-8000-00000000000b',
      chatTitle: '',
      lastSendTime: T0 + 600_000,
      bubbles: [
        { type: 'user', id: 'b-11', text: 'What does the regex /^\\s*#/ match?' },
        { type: 'ai', id: 'b-12', text: 'A line whose first non-blank character is `#`: a comment line in shell or YAML.' },
      ],
    },
    { tabId: '6f1c2a9e-0000-4000-8000-00000000000c', chatTitle: 'New chat', bubbles: [] },
  ],
};

const SQL = await initSqlJs();
const db = new SQL.Database();
db.run('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
const item = db.prepare('INSERT INTO ItemTable VALUES (?, ?)');
item.run(['workbench.panel.aichat.view.aichat.chatdata', JSON.stringify(chatdata)]);
item.run(['workbench.explorer.treeViewState', JSON.stringify({ expanded: ['src'] })]);
item.run(['history.entries', JSON.stringify([{ editor: { resource: 'file:///home/dev/uploader/src/upload.ts' } }])]);
item.free();
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, db.export());
db.close();
