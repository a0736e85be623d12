/**
 * API keys: kept in memory by default; "remember on this device" is an explicit opt-in that
 * stores the key in the separate secrets database, and Forget removes it from both. Every key is
 * bound to the origin of the endpoint it was entered for: the request layer (http.ts) refuses to
 * send it anywhere else, so a base URL changed later (by hand or by a restored backup) cannot
 * carry it away.
 */
import { originOf } from './http.ts';

/** A key and the origin (`https://api.openai.com`) it was entered for. */
export interface BoundKey {
  key: string;
  origin: string;
}

/** A stored key; `origin` is missing on keys remembered before keys were bound to an endpoint. */
export interface StoredKey {
  key: string;
  origin?: string;
}

export interface SecretStore {
  get(providerId: string): Promise<StoredKey | undefined>;
  put(providerId: string, key: BoundKey): Promise<void>;
  delete(providerId: string): Promise<void>;
}

export class KeyRing {
  private readonly keys = new Map<string, BoundKey>();
  private readonly remembered = new Set<string>();
  private readonly unbound = new Set<string>();

  constructor(private readonly store?: SecretStore) {}

  /**
   * The key for a provider and the origin it is bound to: memory first, then the device store.
   * A stored key without an origin (remembered before binding existed) is dropped and must be
   * entered again: binding it to the base URL in the settings now could bless an endpoint a
   * restored backup put there, and nothing else says where the key was meant to go.
   */
  async get(providerId: string): Promise<BoundKey | undefined> {
    const inMemory = this.keys.get(providerId);
    if (inMemory !== undefined) return inMemory;
    const stored = await this.store?.get(providerId);
    if (stored === undefined) return undefined;
    if (stored.origin === undefined) {
      this.unbound.add(providerId);
      await this.store?.delete(providerId);
      return undefined;
    }
    const bound = { key: stored.key, origin: stored.origin };
    this.keys.set(providerId, bound);
    this.remembered.add(providerId);
    return bound;
  }

  /** Keeps `key` for `providerId`, bound to the origin of `baseUrl` (the endpoint it is entered for). */
  async set(providerId: string, key: string, remember: boolean, baseUrl: string): Promise<void> {
    const clean = key.trim();
    if (clean.length === 0) return this.forget(providerId);
    const bound = { key: clean, origin: originOf(baseUrl) };
    this.keys.set(providerId, bound);
    this.unbound.delete(providerId);
    if (remember && this.store) {
      await this.store.put(providerId, bound);
      this.remembered.add(providerId);
    } else if (this.remembered.has(providerId)) {
      await this.store?.delete(providerId);
      this.remembered.delete(providerId);
    }
  }

  isRemembered(providerId: string): boolean {
    return this.remembered.has(providerId);
  }

  /** True when a key remembered before binding was dropped on reading (the page asks for it again). */
  wasUnbound(providerId: string): boolean {
    return this.unbound.has(providerId);
  }

  /** Removes the key from memory and from the device. */
  async forget(providerId: string): Promise<void> {
    this.keys.delete(providerId);
    this.remembered.delete(providerId);
    this.unbound.delete(providerId);
    await this.store?.delete(providerId);
  }
}
