// The site reachability check behind the offline notice: a thrown fetch is offline, any answer (even 404) is online.
import { describe, expect, it } from 'vitest';
import { siteReachable } from './OfflineNotice.tsx';

describe('siteReachable', () => {
  it('asks the site past every cache and reads a thrown fetch as offline', async () => {
    const asked: Array<{ url: string; init?: RequestInit }> = [];
    const answering = (async (url: string, init?: RequestInit) => {
      asked.push({ url, ...(init ? { init } : {}) });
      return new Response(null, { status: 404 });
    }) as typeof fetch;
    expect(await siteReachable(answering, '/foldlab/')).toBe(true);
    expect(asked[0]!.url).toMatch(/^\/foldlab\/manifest\.webmanifest\?online-check=\d+$/);
    expect(asked[0]!.init).toMatchObject({ cache: 'no-store' });

    const failing = (async () => { throw new TypeError('Failed to fetch'); }) as typeof fetch;
    expect(await siteReachable(failing, '/foldlab/')).toBe(false);
  });
});
