/**
 * Fixtures shared by the provider tests (Node only): one fake server per test file, the key check
 * on every rejection a file saw, and the small agent context the agent-model tests send.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { ContextEntry } from '../../core/compaction/types.ts';
import type { Block, Role } from '../../core/journal/entry.ts';
import { renderedError, startFakeServer, type FakeServer, type FakeServerOptions } from './test-server.ts';

/**
 * One fake server for the calling test file: started before its tests, its requests and queued
 * replies forgotten before each test, closed after the file. Call it at the file's top level; the
 * object it returns stands for the server once the tests run.
 */
export function useFakeServer(options?: FakeServerOptions): FakeServer {
  let current: FakeServer | undefined;
  const live = (): FakeServer => {
    if (!current) throw new Error('The fake server runs only while the tests run (it starts in beforeAll).');
    return current;
  };
  beforeAll(async () => {
    current = await startFakeServer(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  beforeEach(() => current?.reset());
  return {
    get url() {
      return live().url;
    },
    get requests() {
      return live().requests;
    },
    reply: (...replies) => live().reply(...replies),
    pending: () => live().pending(),
    reset: () => live().reset(),
    close: () => live().close(),
  };
}

/** The rejection of `promise`, which must be an Error. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

/** Keeps every rejection `failure` saw, for a test file's last check (that none of them shows the key). */
export function rejectionLog(): { errors: Error[]; failure: (promise: Promise<unknown>) => Promise<Error> } {
  const errors: Error[] = [];
  return {
    errors,
    failure: async (promise) => {
      const error = await rejection(promise);
      errors.push(error);
      return error;
    },
  };
}

/** The rejection of `promise`, which must be an Error whose rendering does not contain `secret`. */
export async function rejectionWithout(secret: string, promise: Promise<unknown>): Promise<Error> {
  const error = await rejection(promise);
  expect(renderedError(error)).not.toContain(secret);
  return error;
}

/** A journal message in an agent's context. */
export function contextItem(role: Role, blocks: Block[], id: string): ContextEntry {
  return { role, origin: 'journal', entry: { id, index: 0, parentId: null, role, kind: 'message', blocks, sourceType: 'live', line: 1 } };
}

/** The one tool the agent-model tests offer: `read` of a path. */
export const READ_TOOLS = [{ name: 'read', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
