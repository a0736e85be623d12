import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entryText } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { isClineTaskFolder, readClineTasks } from './cline-folder.ts';
import { importText } from './run.ts';

const DIR = 'public/samples/cline/1764201600000';
const HISTORY = readFileSync(`${DIR}/api_conversation_history.json`, 'utf8');
const UI = readFileSync(`${DIR}/ui_messages.json`, 'utf8');
const FILES = [
  { path: '1764201600000/api_conversation_history.json', text: HISTORY },
  { path: '1764201600000/ui_messages.json', text: UI },
];

describe('Cline / Roo Code tasks', () => {
  it('reads the sample task folder as written by hand: usage per request from ui_messages.json, calls paired', () => {
    expect(isClineTaskFolder(FILES.map((file) => file.path))).toBe(true);
    const { tasks, problems } = readClineTasks(FILES);
    expect(problems).toEqual([]);
    expect(tasks.map((task) => task.taskId)).toEqual(['1764201600000']);
    const result = importText(JSON.stringify(tasks[0]!.document, null, 1), { format: 'cline' });
    expect(result.format).toBe('cline');
    expect(result.meta).toMatchObject({ sessionId: '1764201600000', title: 'Add a --verbose flag to cli.py that prints what it is doing.' });
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}`)).toEqual(['m0:user', 'm1:assistant', 'm2:tool', 'm2.1:user', 'm3:assistant', 'm4:tool', 'm4.1:user', 'm5:assistant']);
    // tokensIn excludes the cache, as Anthropic's input_tokens does.
    expect(result.entries.filter((entry) => entry.usage).map((entry) => [entry.id, entry.usage])).toEqual([
      ['m1', { input: 11877, output: 96, cacheWrite: 11873 }],
      ['m3', { input: 12289, output: 301, cacheRead: 11873, cacheWrite: 412 }],
      ['m5', { input: 12634, output: 88, cacheRead: 12285, cacheWrite: 345 }],
    ]);
    // attempt_completion waits for the user: the file records no result for it.
    expect(linkReport(result.entries)).toEqual({ toolCalls: 3, toolResults: 2, orphanToolCalls: 1, orphanToolResults: 0 });
    expect(entryText(result.entries[2]!)).toMatch(/^import argparse/);
    expect(result.issues).toEqual([]);
  });

  it('recognizes the history alone by its <task> and reads it without usage', () => {
    const result = importText(HISTORY, { fileName: 'api_conversation_history.json' });
    expect(result.format).toBe('cline');
    expect(result.entries).toHaveLength(8);
    expect(result.entries.some((entry) => entry.usage)).toBe(false);
  });

  it('says when the requests recorded and the assistant messages do not match, and names an unreadable file', () => {
    const ui = JSON.parse(UI) as Array<{ say?: string }>;
    const fewer = ui.filter((message, i) => !(message.say === 'api_req_started' && i > 2));
    const { tasks } = readClineTasks([FILES[0]!, { path: FILES[1]!.path, text: JSON.stringify(fewer) }]);
    const result = importText(JSON.stringify(tasks[0]!.document), { format: 'cline' });
    expect(result.entries.filter((entry) => entry.usage).map((entry) => entry.id)).toEqual(['m1']);
    expect(result.issues).toEqual([{ line: 1, kind: 'unsupported', message: 'ui_messages.json records 1 API request with tokens for 3 assistant messages; the first 1 were paired in order, the rest have no usage' }]);
    const broken = readClineTasks([FILES[0]!, { path: FILES[1]!.path, text: '[{"ts": ' }]);
    expect(broken.problems).toEqual([{ path: '1764201600000/ui_messages.json', message: expect.stringMatching(/^not valid JSON/) as string }]);
    expect(broken.tasks[0]!.document.ui_messages).toEqual([]);
  });
});
