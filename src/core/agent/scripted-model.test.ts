import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContextEntry } from '../compaction/types.ts';
import type { Role } from '../journal/entry.ts';
import { createScriptedModel, parseScript, ScriptedModelError, ScriptFormatError } from './scripted-model.ts';
import { createFolderTools } from './tools/index.ts';
import { createMemoryFolder, type MemoryNode } from './tools/memory-folder.ts';
import { ContextOverflowError, type ModelDelta, type ModelRequest } from './types.ts';
import { CancelledError } from '../cancel.ts';

const DEMO = JSON.parse(readFileSync(new URL('../../../public/samples/live/demo-script.json', import.meta.url), 'utf8')) as unknown;

function item(role: Role, text: string, i = 0): ContextEntry {
  return { role, origin: 'journal', entry: { id: `e${i}`, index: i, parentId: null, role, kind: 'message', blocks: [{ type: 'text', text }], sourceType: 'test', line: i + 1 } };
}

function request(userText: string, signal = new AbortController().signal): ModelRequest {
  return { system: 'You are a test.', tools: [], context: [item('user', userText)], signal };
}

describe('createScriptedModel', () => {
  it('streams text in small pieces and answers with tool calls and usage', async () => {
    const model = createScriptedModel([{ text: 'Looking at the folder now.', toolCalls: [{ name: 'ls', input: { path: '' } }], usage: { input: 120, output: 9 } }], { pieceChars: 5 });
    const deltas: ModelDelta[] = [];
    const reply = await model.complete(request('list files'), (delta) => deltas.push(delta));
    expect(reply).toEqual({ text: 'Looking at the folder now.', toolCalls: [{ id: 'call_1', name: 'ls', input: { path: '' } }], usage: { input: 120, output: 9 }, stop: 'tool_use', model: 'scripted' });
    const texts = deltas.flatMap((d) => (d.type === 'text' ? [d.text] : []));
    expect(texts.join('')).toBe('Looking at the folder now.');
    expect(Math.max(...texts.map((t) => t.length))).toBe(5);
    expect(deltas.at(-1)).toEqual({ type: 'tool_call', id: 'call_1', name: 'ls' });
    expect(model.remaining()).toBe(0);
  });

  it('branches on `match` against the last user text, leaving unmatched steps for later', async () => {
    const model = createScriptedModel({ model: 'demo-1', steps: [{ match: 'hello', text: 'hi' }, { match: 'BYE', text: 'ciao' }, { text: 'anything' }] });
    expect((await model.complete(request('well, bye then'))).text).toBe('ciao');
    expect((await model.complete(request('what now'))).text).toBe('anything');
    const reply = await model.complete(request('Hello there'));
    expect([reply.text, reply.model, reply.stop]).toEqual(['hi', 'demo-1', 'end']);
    await expect(model.complete(request('more'))).rejects.toThrow(/no step left for call 4 \(last user text: "more"\)/);
  });

  it('matches the user\'s own words, not a todo recap the session appends after them', async () => {
    const recap: ContextEntry = { ...item('user', '<system-reminder>Todo recap: fix the summary</system-reminder>', 1), origin: 'synthetic' };
    const model = createScriptedModel([{ match: 'summary', text: 'wrong' }, { match: 'todo', text: 'right' }]);
    const reply = await model.complete({ system: '', tools: [], context: [item('user', 'find every TODO'), recap], signal: new AbortController().signal });
    expect(reply.text).toBe('right');
  });

  it('fails as the step says: overflow is a ContextOverflowError, any other text a ScriptedModelError', async () => {
    const model = createScriptedModel([{ error: 'overflow' }, { error: 'The server fell over.' }]);
    await expect(model.complete(request('a'))).rejects.toBeInstanceOf(ContextOverflowError);
    const error = await model.complete(request('b')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScriptedModelError);
    expect((error as Error).message).toBe('The server fell over.');
  });

  it('aborting mid-stream rejects with CancelledError and stops streaming', async () => {
    const controller = new AbortController();
    const deltas: string[] = [];
    const model = createScriptedModel([{ text: 'a long reply that streams slowly', delayMs: 5 }], {
      pieceChars: 2,
      sleep: async () => {
        if (deltas.length === 3) controller.abort();
      },
    });
    const error = await model.complete(request('go', controller.signal), (d) => deltas.push(d.type)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(deltas).toHaveLength(3);
  });

  it('an already aborted request takes no step', async () => {
    const controller = new AbortController();
    controller.abort();
    const model = createScriptedModel([{ text: 'x' }]);
    await expect(model.complete(request('go', controller.signal))).rejects.toBeInstanceOf(CancelledError);
    expect(model.remaining()).toBe(1);
  });

  it('estimates usage as characters / 4 when the step reports none', async () => {
    const reply = await createScriptedModel([{ text: '12345678' }]).complete({ system: '', tools: [], context: [item('user', 'abcdefghijkl')], signal: new AbortController().signal });
    expect(reply.usage).toEqual({ input: Math.ceil((12 + 2) / 4), output: 2 });
  });

  it('checks the script and names the step and field of each problem', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{}, /"steps" as an array; got "steps": nothing/],
      ['text', /expected an array of steps/],
      [[], /no steps/],
      [[42], /step 1: expected an object/],
      [[{ text: 'ok' }, { txt: 'typo' }], /step 2: unknown field "txt"/],
      [[{ text: 3 }], /step 1: "text" must be a string; got 3/],
      [[{ toolCalls: [{ input: {} }] }], /step 1: toolCalls\[0\]\.name must be a non-empty string; got nothing/],
      [[{ toolCalls: 'ls' }], /step 1: "toolCalls" must be an array/],
      [[{ error: 'overflow', text: 'and words' }], /step 1: a step with "error" fails the call/],
      [[{ match: 'x' }], /step 1: expected "text", "thinking", "toolCalls" or "error"/],
      [[{ text: 'x', delayMs: -1 }], /step 1: "delayMs" must be a number of milliseconds >= 0; got -1/],
      [[{ text: 'x', usage: { input: 1 } }], /step 1: "usage.output" must be a whole number/],
      [{ model: '', steps: [{ text: 'x' }] }, /"model" must be a non-empty string/],
    ];
    for (const [script, message] of bad) {
      expect(() => createScriptedModel(script), JSON.stringify(script)).toThrow(ScriptFormatError);
      expect(() => parseScript(script)).toThrow(message);
    }
  });

  it('replays any valid script: the streamed pieces join to each step text, calls keep their order', async () => {
    const step = fc.record({
      text: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
      toolCalls: fc.array(fc.record({ name: fc.stringMatching(/^[a-z_]{1,8}$/), input: fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 })) }), { maxLength: 3 }),
    }, { requiredKeys: ['toolCalls'] }).map((s) => (s.text === undefined && s.toolCalls.length === 0 ? { ...s, text: 'x' } : s));
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 9 }), async (steps, pieceChars) => {
      const model = createScriptedModel(steps, { pieceChars });
      for (const s of steps) {
        let streamed = '';
        const reply = await model.complete(request('go'), (d) => { if (d.type === 'text') streamed += d.text; });
        expect(streamed).toBe(s.text ?? '');
        expect(reply.text).toBe(s.text ?? '');
        expect(reply.toolCalls.map((c) => [c.name, c.input])).toEqual(s.toolCalls.map((c) => [c.name, c.input]));
        expect(reply.stop).toBe(s.toolCalls.length > 0 ? 'tool_use' : 'end');
      }
      expect(model.remaining()).toBe(0);
    }), { numRuns: 60 });
  });
});

describe('the demo script (public/samples/live/demo-script.json)', () => {
  it('is a valid script that calls ls, read, grep and summarize_context, answers an @file turn, and overflows once', () => {
    const { steps } = parseScript(DEMO);
    const names = new Set(steps.flatMap((s) => (s.toolCalls ?? []).map((c) => c.name)));
    for (const name of ['ls', 'read', 'grep', 'summarize_context']) expect(names).toContain(name);
    expect(steps.filter((s) => s.error === 'overflow')).toHaveLength(1);
    expect(steps.some((s) => s.match?.includes('@'))).toBe(true);
  });
});

/** The fixture folder on disk, as an in-memory Folder. */
function fixtureFolder() {
  const root = fileURLToPath(new URL('../../../e2e/fixtures/live-folder/', import.meta.url));
  const files: Record<string, MemoryNode> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(root, path).split('\\').join('/')] = { text: readFileSync(path, 'utf8') };
    }
  };
  walk(root);
  return createMemoryFolder(files, 'live-folder');
}

describe('the demo script over the fixture folder (e2e/fixtures/live-folder)', () => {
  it('plays its turns in order, overflowing once, and every folder tool call it makes succeeds', async () => {
    const tools = new Map(createFolderTools(fixtureFolder(), { gitignore: true }).map((tool) => [tool.spec.name, tool]));
    const model = createScriptedModel(DEMO);
    const signal = new AbortController().signal;
    const turns = ['What is in this folder?', 'Explain @src/parser.py', 'Find every TODO', 'Summarize what we did', 'What is in the notes folder?'];
    const made: string[][] = [];
    let overflows = 0;
    for (const turn of turns) {
      const names: string[] = [];
      for (;;) {
        const reply = await model.complete(request(turn, signal)).catch((error: unknown) => {
          if (error instanceof ContextOverflowError) return undefined;
          throw error;
        });
        if (!reply) {
          overflows++;
          continue;
        }
        for (const call of reply.toolCalls) {
          names.push(call.name);
          const tool = tools.get(call.name);
          if (!tool) continue; // summarize_context belongs to the loop
          const outcome = await tool.run(call.input, { signal });
          expect(outcome.ok, `${call.name} ${JSON.stringify(call.input)}: ${outcome.error ?? ''}`).toBe(true);
        }
        if (reply.stop === 'end') break;
      }
      made.push(names);
    }
    expect(made).toEqual([['ls', 'read'], ['read', 'grep'], ['grep'], ['summarize_context'], ['ls', 'read']]);
    expect(overflows).toBe(1);
    expect(model.remaining()).toBe(0);
  });
});
