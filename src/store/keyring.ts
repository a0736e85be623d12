/** The page's one key ring: keys in memory, remembered in the separate secrets database only on request. */
import { secrets } from '../db/secrets.ts';
import { KeyRing } from '../llm/keys.ts';

export const keyring = new KeyRing({
  get: async (id) => (await secrets.keys.get(id))?.key,
  put: async (id, key) => void (await secrets.keys.put({ providerId: id, key, savedAt: Date.now() })),
  delete: async (id) => void (await secrets.keys.delete(id)),
});
