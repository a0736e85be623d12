import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryFolder } from './memory-folder.ts';
import { FolderPathError, normalizeToolPath, resolveToolPath } from './paths.ts';

describe('normalizeToolPath', () => {
  it.each([
    ['', ''],
    ['.', ''],
    ['./src/a.ts', 'src/a.ts'],
    ['src//a.ts', 'src/a.ts'],
    ['src/./lib/../a.ts', 'src/a.ts'],
    ['src\\lib\\a.ts', 'src/lib/a.ts'],
    ['src/', 'src'],
    ['a/..', ''],
  ])('%j -> %j', (raw, expected) => {
    expect(normalizeToolPath(raw)).toBe(expected);
  });

  it.each([['..'], ['../x'], ['src/../../x'], ['a/b/../../../etc/passwd'], ['..\\x']])('refuses %j: it climbs out', (raw) => {
    expect(() => normalizeToolPath(raw)).toThrow(/leads outside the folder/);
  });

  it.each([['/etc/passwd'], ['\\\\server\\share'], ['C:\\Windows'], ['c:/x'], ['~/.ssh/id_rsa'], ['~']])('refuses %j: absolute', (raw) => {
    expect(() => normalizeToolPath(raw)).toThrow(/absolute paths are not allowed/);
  });

  it('refuses a NUL character', () => {
    expect(() => normalizeToolPath('a\0b')).toThrow(FolderPathError);
  });

  it('never yields a path that escapes, whatever the input', () => {
    const segment = fc.constantFrom('..', '.', '', 'a', 'b', 'c.txt', '...', '.hidden');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 12 }), fc.constantFrom('/', '\\'), (parts, sep) => {
        let out: string;
        try {
          out = normalizeToolPath(parts.join(sep));
        } catch (error) {
          expect(error).toBeInstanceOf(FolderPathError);
          return;
        }
        expect(out.startsWith('/')).toBe(false);
        const segments = out === '' ? [] : out.split('/');
        expect(segments.every((s) => s !== '' && s !== '.' && s !== '..')).toBe(true);
        // Normalizing is idempotent.
        expect(normalizeToolPath(out)).toBe(out);
      }),
    );
  });
});

describe('resolveToolPath', () => {
  const folder = createMemoryFolder({
    'src/a.ts': { text: 'a' },
    'inside': { link: 'src' },
    'outside': { link: '../elsewhere' },
    'rooted': { link: '/etc' },
    'loop': { link: 'loop' },
  });

  it('follows a symlink that stays inside to its real path', async () => {
    const resolved = await resolveToolPath({ folder }, 'inside/a.ts');
    expect(resolved).toMatchObject({ path: 'inside/a.ts', real: 'src/a.ts', stat: { kind: 'file', size: 1 } });
  });

  it.each([['outside'], ['outside/x'], ['rooted/passwd'], ['loop']])('refuses %j, a symlink out (or nowhere)', async (raw) => {
    await expect(resolveToolPath({ folder }, raw)).rejects.toThrow(/symlink that leads outside the folder/);
  });

  it('says when nothing is there', async () => {
    await expect(resolveToolPath({ folder }, 'src/b.ts')).rejects.toThrow('No such file or directory: "src/b.ts".');
  });

  it('refuses a symlink when the folder cannot tell where it leads', async () => {
    const blind = { ...folder, realPath: undefined };
    await expect(resolveToolPath({ folder: blind }, 'inside')).rejects.toThrow(/cannot tell where it leads/);
  });
});
