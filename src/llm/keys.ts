/**
 * API keys: kept in memory by default; "remember on this device" is an explicit opt-in that
 * stores the key in the separate secrets database, and Forget removes it from both.
 */
export interface SecretStore {
  get(providerId: string): Promise<string | undefined>;
  put(providerId: string, key: string): Promise<void>;
  delete(providerId: string): Promise<void>;
}

export class KeyRing {
  private readonly keys = new Map<string, string>();
  private readonly remembered = new Set<string>();

  constructor(private readonly store?: SecretStore) {}

  /** The key for a provider: memory first, then the device store (if the user opted in before). */
  async get(providerId: string): Promise<string | undefined> {
    const inMemory = this.keys.get(providerId);
    if (inMemory !== undefined) return inMemory;
    const stored = await this.store?.get(providerId);
    if (stored !== undefined) {
      this.keys.set(providerId, stored);
      this.remembered.add(providerId);
    }
    return stored;
  }

  async set(providerId: string, key: string, remember: boolean): Promise<void> {
    const clean = key.trim();
    if (clean.length === 0) return this.forget(providerId);
    this.keys.set(providerId, clean);
    if (remember && this.store) {
      await this.store.put(providerId, clean);
      this.remembered.add(providerId);
    } else if (this.remembered.has(providerId)) {
      await this.store?.delete(providerId);
      this.remembered.delete(providerId);
    }
  }

  isRemembered(providerId: string): boolean {
    return this.remembered.has(providerId);
  }

  /** Removes the key from memory and from the device. */
  async forget(providerId: string): Promise<void> {
    this.keys.delete(providerId);
    this.remembered.delete(providerId);
    await this.store?.delete(providerId);
  }
}
