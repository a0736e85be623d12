/** The page's one key ring: keys in memory, remembered in the separate secrets database only on request, each bound to its endpoint's origin. */
import { secrets } from '../db/secrets.ts';
import { KeyRing } from '../llm/remote/keys.ts';

export const keyring = new KeyRing({
  get: async (id) => {
    const row = await secrets.keys.get(id);
    return row ? { key: row.key, ...(row.origin !== undefined ? { origin: row.origin } : {}) } : undefined;
  },
  put: async (id, bound) => void (await secrets.keys.put({ providerId: id, key: bound.key, origin: bound.origin, savedAt: Date.now() })),
  delete: async (id) => void (await secrets.keys.delete(id)),
});
