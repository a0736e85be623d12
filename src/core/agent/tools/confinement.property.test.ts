import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Folder } from '../types.ts';
import { createFolderTools } from './index.ts';
import { createMemoryFolder } from './memory-folder.ts';
import { toolRunner } from './testing.ts';

/**
 * A disk with a secret beside the picked folder `root`, and links in `root` that lead in and out:
 * the Folder the tools get is `root`, whose operations follow links anywhere (only the tools
 * confine), its realPath saying where a path leads, or undefined outside `root`.
 */
function pickedFolder(): Folder {
  const disk = createMemoryFolder({
    'secret.txt': { text: 'TOP-SECRET' },
    'other/secret.txt': { text: 'TOP-SECRET' },
    'root/a/file.txt': { text: 'inside a' },
    'root/b/file.txt': { text: 'inside b' },
    'root/a/link-in': { link: '../b' },
    'root/link-out': { link: '../other' },
    'root/a/link-up': { link: '../..' },
    'root/link-file': { link: '../secret.txt' },
  });
  const under = (path: string) => (path === '' ? 'root' : `root/${path}`);
  // Like a file system with no guard of its own: every operation follows links wherever they go.
  const follow = async (path: string) => {
    const real = await disk.realPath!(under(path));
    if (real === undefined) throw new Error(`No such path: ${path}`);
    return real;
  };
  const lstat = async (path: string) => {
    const full = under(path);
    const slash = full.lastIndexOf('/');
    const parent = slash < 0 ? undefined : await disk.realPath!(full.slice(0, slash));
    if (slash >= 0 && parent === undefined) return undefined;
    return disk.stat(slash < 0 ? full : `${parent === '' ? '' : `${parent}/`}${full.slice(slash + 1)}`);
  };
  return {
    name: 'root',
    snapshot: false,
    list: async (path) => disk.list(await follow(path)),
    stat: lstat,
    read: async (path, range) => disk.read(await follow(path), range),
    async realPath(path) {
      const real = await disk.realPath!(under(path));
      if (real === 'root') return '';
      return real?.startsWith('root/') ? real.slice('root/'.length) : undefined;
    },
  };
}

describe('confinement (property)', () => {
  it('no tool ever returns what lies outside the folder, whatever path it is given', async () => {
    const run = toolRunner(createFolderTools(pickedFolder()));
    const segment = fc.constantFrom('..', '.', 'a', 'b', 'other', 'secret.txt', 'link-in', 'link-out', 'link-up', 'link-file');
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.constantFrom('read', 'ls', 'grep', 'glob', 'stat'), async (parts, tool) => {
        const path = parts.join('/');
        const input = tool === 'grep' ? { pattern: 'SECRET|inside', path } : tool === 'glob' ? { pattern: '**/*', path } : { path };
        const out = await run(tool, input);
        expect(out.text).not.toContain('TOP-SECRET');
        if (tool === 'glob' || tool === 'ls') expect(out.text).not.toMatch(/(^|\n)(other\/)?secret\.txt/);
      }),
      { numRuns: 1000 },
    );
  });
});
