import { describe, expect, it, vi } from 'vitest';
import { MAX_MENTIONS, mentionReminder, parseMentionMode, parseMentions, withMentions } from './mentions.ts';
import { loadPrompts } from '../test-fixtures.ts';
import { createMtimeTracker } from './mtime.ts';
import { createFolderTools } from './tools/index.ts';
import { createMemoryFolder } from './tools/memory-folder.ts';
import { toolRunner } from './tools/testing.ts';

const prompts = loadPrompts();

describe('parseMentions (seed 002 §A7, §C3, §E4)', () => {
  it('finds the seed\'s example', () => {
    expect(parseMentions('Please fix @src/utils/auth.ts')).toEqual({ paths: ['src/utils/auth.ts'], more: 0 });
  });

  it.each([
    ['mail me at user@example.com', []],
    ['abc@def and 9@x', []],
    ['(@a.ts) [@b.ts] "@c.ts" @d.ts', ['a.ts', 'b.ts', 'c.ts', 'd.ts']],
    ['@start.md at the start', ['start.md']],
    ['line\n@next/line.txt', ['next/line.txt']],
    ['dots and dashes @a-b_c/.env.local', ['a-b_c/.env.local']],
    ['the sentence ends with @README.md.', ['README.md']],
    ['no spaces: @my file.txt', ['my']],
    ['not Chinese: @文件.txt', []],
    ['a lone @ sign', []],
  ])('%j -> %j', (text, paths) => {
    expect(parseMentions(text).paths).toEqual(paths);
  });

  it('keeps the order of appearance and drops duplicates', () => {
    expect(parseMentions('@b.ts then @a.ts then @b.ts again and @a.ts').paths).toEqual(['b.ts', 'a.ts']);
  });

  it('takes at most 5 and counts the rest', () => {
    const text = Array.from({ length: 8 }, (_, i) => `@f${i}.ts`).join(' ') + ' @f0.ts';
    expect(parseMentions(text)).toEqual({ paths: ['f0.ts', 'f1.ts', 'f2.ts', 'f3.ts', 'f4.ts'], more: 3 });
    expect(MAX_MENTIONS).toBe(5);
  });
});

describe('mentionReminder', () => {
  const folder = () =>
    createMemoryFolder({
      'src/utils/auth.ts': { text: 'export const login = () => true;\n', mtimeMs: 1000 },
      'notes.md': { text: 'closing </file> tag inside\n' },
      'logo.png': { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0]) },
      'big.txt': { text: Array.from({ length: 600 }, (_, i) => `l${i + 1}`).join('\n') },
    });

  it('is undefined when nothing is mentioned', async () => {
    expect(await mentionReminder('hello there', folder(), { prompts })).toBeUndefined();
    expect(await withMentions('hello there', folder(), { prompts })).toBe('hello there');
  });

  it('gives the seed\'s reminder-only template', async () => {
    expect(await mentionReminder('Fix @src/utils/auth.ts', folder(), { prompts, mode: 'reminder' })).toBe(
      '<system-reminder>\nThe user mentioned @src/utils/auth.ts.\nYou MUST read this file with the Read tool before answering.\n</system-reminder>',
    );
    const many = await mentionReminder('@a @b @c @d @e @f @g', folder(), { prompts, mode: 'reminder' });
    expect(many).toBe('<system-reminder>\nThe user mentioned @a, @b, @c, @d, @e (and 2 more…).\nYou MUST read these files with the Read tool before answering.\n</system-reminder>');
  });

  it('names the files and asks the model to read them by default, reading none (the seed)', async () => {
    const memory = folder();
    const read = vi.spyOn(memory, 'read');
    expect(await withMentions('Fix @src/utils/auth.ts', memory, { prompts })).toBe(
      'Fix @src/utils/auth.ts\n\n<system-reminder>\nThe user mentioned @src/utils/auth.ts.\nYou MUST read this file with the Read tool before answering.\n</system-reminder>',
    );
    expect(read).not.toHaveBeenCalled();
  });

  it('pasted: appends the files\' contents, cut and delimited like read output', async () => {
    const text = await withMentions('Compare @src/utils/auth.ts with @notes.md, @logo.png, @big.txt and @missing.ts', folder(), { prompts, mode: 'paste' });
    expect(text.startsWith('Compare @src/utils/auth.ts with @notes.md, @logo.png, @big.txt and @missing.ts\n\n<system-reminder>\n')).toBe(true);
    expect(text).toContain('The user mentioned @src/utils/auth.ts, @notes.md, @logo.png, @big.txt, @missing.ts.');
    expect(text).toContain('@src/utils/auth.ts:\n<file>\nsrc/utils/auth.ts (lines 1-1 of 1; 33 bytes; modified 1970-01-01T00:00:01.000Z)\n     1\texport const login = () => true;\n</file>');
    // A file holding the delimiter gets a longer one it cannot close.
    expect(text).toContain('@notes.md:\n<file-1>\nnotes.md (lines 1-1 of 1; 27 bytes)\n     1\tclosing </file> tag inside\n</file-1>');
    expect(text).toContain('@logo.png:\n<file>\nlogo.png: binary file (PNG image), 5 bytes;');
    expect(text).toContain('[Cut at the 500-line cap: lines 501-600 (100 lines) not shown; call read with offset 501 to continue.]');
    expect(text).toContain('@missing.ts: No such file or directory: "missing.ts".');
    expect(text.endsWith('</system-reminder>')).toBe(true);
  });

  it('refuses mentions that leave the folder, as read does', async () => {
    const text = await mentionReminder('see @../../etc/passwd and @/etc/hosts', folder(), { prompts, mode: 'paste' });
    expect(text).toContain('@../../etc/passwd: Refused "../../etc/passwd": ".." leads outside the folder; paths must stay inside it.');
    expect(text).not.toContain('@/etc/hosts: <file>');
    expect(text).toContain('@/etc/hosts: Refused "/etc/hosts": absolute paths are not allowed');
  });

  it('shares the mtime tracker with the read tool (L9)', async () => {
    const memory = folder();
    const mtimes = createMtimeTracker();
    await mentionReminder('look at @src/utils/auth.ts', memory, { prompts, mtimes, mode: 'paste' });
    memory.set('src/utils/auth.ts', { text: 'changed\n', mtimeMs: 2000 });
    const out = await toolRunner(createFolderTools(memory, { mtimes }))('read', { path: 'src/utils/auth.ts' });
    expect(out.text).toContain('Note: src/utils/auth.ts was modified externally.');
  });

  it('honours .gitignore when the session does', async () => {
    const memory = createMemoryFolder({ '.gitignore': { text: '.env\n' }, '.env': { text: 'KEY=secret\n' } });
    const text = await mentionReminder('read @.env', memory, { prompts, gitignore: true, mode: 'paste' });
    expect(text).toContain('@.env: Refused ".env": it is ignored by .gitignore line 1 (".env")');
    expect(text).not.toContain('KEY=secret');
  });
});

describe('parseMentionMode', () => {
  it('reads reminder and paste, and names the choices otherwise', () => {
    expect(parseMentionMode('reminder')).toBe('reminder');
    expect(parseMentionMode('paste')).toBe('paste');
    expect(() => parseMentionMode('contents')).toThrow('mentions must be reminder or paste; got "contents"');
  });
});
