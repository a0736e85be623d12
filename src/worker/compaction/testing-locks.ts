/** Web Locks for tests in Node, which has no `navigator.locks`. */
import type { Locks } from './resumable-compaction.ts';

/**
 * Exclusive Web Locks for one origin, as the browser keeps them (Node has no `navigator.locks`):
 * queued per name, `ifAvailable` answers null when held, `signal` gives up a wait. A new instance
 * stands for the browser after a reload: the dead page's locks are gone.
 */
export class OriginLocks {
  private readonly busy = new Map<string, Promise<void>>();
  async request<T>(name: string, options: { ifAvailable?: boolean; signal?: AbortSignal }, callback: (lock: { name: string } | null) => Promise<T>): Promise<T> {
    if (options.ifAvailable && this.busy.has(name)) return callback(null);
    while (this.busy.has(name)) {
      await Promise.race([
        this.busy.get(name),
        new Promise((_, reject) => options.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')), { once: true })),
      ]);
    }
    let release = () => undefined as void;
    this.busy.set(name, new Promise<void>((resolve) => (release = resolve)));
    try {
      return await callback({ name });
    } finally {
      this.busy.delete(name);
      release();
    }
  }
  /** This origin's locks as the code under test takes them (the part of `LockManager` it calls). */
  get api(): Locks {
    return this as unknown as Locks;
  }
  async query() {
    return { held: [...this.busy.keys()].map((name) => ({ name, mode: 'exclusive' as const })), pending: [] };
  }
}
