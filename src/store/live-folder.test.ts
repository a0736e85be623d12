import { describe, expect, it } from 'vitest';
import { FolderGoneError, FolderPermissionError, folderPermission, reopenHandle } from './live-folder.ts';

/** A kept directory handle as far as reopening needs it: its permission answers and whether its folder is still there. */
function keptHandle(options: { query?: PermissionState; request?: PermissionState; gone?: boolean; noPermissionsApi?: boolean }) {
  const requests: unknown[] = [];
  const handle = {
    kind: 'directory',
    name: 'tiny-app',
    values() {
      return (async function* () {
        if (options.gone) throw new DOMException('tiny-app not found', 'NotFoundError');
        yield { kind: 'file', name: 'README.md' };
      })();
    },
    ...(options.noPermissionsApi ? {} : {
      queryPermission: async () => options.query ?? 'granted',
      requestPermission: async (descriptor: unknown) => {
        requests.push(descriptor);
        return options.request ?? 'denied';
      },
    }),
  };
  return { handle: handle as unknown as FileSystemDirectoryHandle, requests };
}

describe('reopenHandle', () => {
  it('reads a handle the browser still allows without asking again', async () => {
    const { handle, requests } = keptHandle({ query: 'granted' });
    const picked = await reopenHandle(handle);
    expect(picked.folder.name).toBe('tiny-app');
    expect(picked.folder.snapshot).toBe(false);
    expect(picked.handle).toBe(handle);
    expect(requests).toEqual([]);
  });

  it('asks for read permission when the browser says it will ask again', async () => {
    const { handle, requests } = keptHandle({ query: 'prompt', request: 'granted' });
    await expect(folderPermission(handle)).resolves.toBe('prompt');
    await expect(reopenHandle(handle)).resolves.toMatchObject({ handle });
    expect(requests).toEqual([{ mode: 'read' }]);
  });

  it('a refusal is a FolderPermissionError naming the folder and saying the journal is kept', async () => {
    const { handle } = keptHandle({ query: 'prompt', request: 'denied' });
    const error = await reopenHandle(handle).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FolderPermissionError);
    expect((error as Error).message).toMatch(/^Reading the folder tiny-app was not allowed.*journal is kept.*pick the folder again/);
  });

  it('a folder deleted since it was picked is a FolderGoneError, not a session over nothing', async () => {
    const { handle } = keptHandle({ gone: true });
    const error = await reopenHandle(handle).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FolderGoneError);
    expect((error as Error).message).toMatch(/^The folder tiny-app is no longer where it was/);
  });

  it('a browser without the permissions API reads the handle as it is', async () => {
    const { handle } = keptHandle({ noPermissionsApi: true });
    await expect(folderPermission(handle)).resolves.toBe('granted');
    await expect(reopenHandle(handle)).resolves.toMatchObject({ handle });
  });
});
