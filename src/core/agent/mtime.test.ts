import { describe, expect, it } from 'vitest';
import { createMtimeTracker, modifiedNote } from './mtime.ts';
import { createFolderTools } from './tools/index.ts';
import { createMemoryFolder } from './tools/memory-folder.ts';
import { toolRunner } from './tools/testing.ts';

describe('createMtimeTracker', () => {
  it('reports a change only on a re-read with a different known time', () => {
    const tracker = createMtimeTracker();
    expect(tracker.record('a.ts', 1000)).toBe(false);
    expect(tracker.record('a.ts', 1000)).toBe(false);
    expect(tracker.record('a.ts', 2000)).toBe(true);
    expect(tracker.record('a.ts', 2000)).toBe(false);
    expect(tracker.record('b.ts', 2000)).toBe(false);
    expect(tracker.lastRead('a.ts')).toBe(2000);
    expect(tracker.lastRead('c.ts')).toBeUndefined();
  });

  it('never counts an unknown time (0) as a change', () => {
    const tracker = createMtimeTracker();
    expect(tracker.record('a.ts', 0)).toBe(false);
    expect(tracker.record('a.ts', 5)).toBe(false);
    expect(tracker.record('a.ts', 0)).toBe(false);
  });
});

describe('read with L9 tracking', () => {
  it('adds the seed\'s note when a file read before was modified since', async () => {
    const folder = createMemoryFolder({ 'src/a.ts': { text: 'one\n', mtimeMs: 1_000 } });
    const run = toolRunner(createFolderTools(folder));
    const note = modifiedNote('src/a.ts');
    expect(note).toBe('Note: src/a.ts was modified externally.');
    expect((await run('read', { path: 'src/a.ts' })).text).not.toContain(note);
    expect((await run('read', { path: 'src/a.ts' })).text).not.toContain(note);
    folder.set('src/a.ts', { text: 'two\n', mtimeMs: 2_000 });
    const changed = await run('read', { path: 'src/a.ts' });
    expect(changed.text.split('\n')).toEqual(['src/a.ts (lines 1-1 of 1; 4 bytes; modified 1970-01-01T00:00:02.000Z)', note, '     1\ttwo']);
    expect((await run('read', { path: 'src/a.ts' })).text).not.toContain(note);
  });

  it('says nothing on a first read of a file, however new', async () => {
    const folder = createMemoryFolder({ 'a.ts': { text: 'x', mtimeMs: 5 } });
    const run = toolRunner(createFolderTools(folder));
    folder.set('a.ts', { text: 'y', mtimeMs: 9 });
    expect((await run('read', { path: 'a.ts' })).text).not.toContain('modified externally');
  });

  it('notes a change to a binary file too', async () => {
    const folder = createMemoryFolder({ 'img.bin': { bytes: new Uint8Array([0, 1]), mtimeMs: 1 } });
    const run = toolRunner(createFolderTools(folder));
    await run('read', { path: 'img.bin' });
    folder.set('img.bin', { bytes: new Uint8Array([0, 2]), mtimeMs: 2 });
    expect((await run('read', { path: 'img.bin' })).text).toMatch(/^Note: img.bin was modified externally.\nimg.bin: binary file/);
  });
});
