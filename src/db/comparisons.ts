/**
 * Saved comparisons and dismissed probes: save a finished compare (its request stripped of every
 * secret), list a conversation's comparisons newest first, open, rename, delete; remember which
 * retention probes the user marked as wrong so the next run leaves them out.
 */
import type { CompareResult, ComparisonRow, StoredCompareRequest } from './comparison-row.ts';
import type { DismissedProbeRow, FoldlabDatabase } from './schema.ts';
import type { KeyedRemote } from './stored-remote.ts';

/** A compare request as the page sends it: the stored fields, a job id, the key. */
type CompareRequest = Omit<StoredCompareRequest, 'remote'> & { jobId: string; remote?: KeyedRemote };

/** The longest name a saved comparison keeps (characters). */
export const MAX_COMPARISON_NAME = 200;

/**
 * The request as it may be stored or exported: no job id, no API key, no self-hosted model config
 * (a URL list that is not needed to read the result). Built field by field, so a secret added to
 * the request later is left out rather than copied.
 */
export function storableRequest(request: CompareRequest | StoredCompareRequest): StoredCompareRequest {
  const stored: StoredCompareRequest = {
    conversationId: request.conversationId,
    counter: request.counter,
    contextWindow: request.contextWindow,
    configs: request.configs.map((config) => ({ strategy: config.strategy, options: { ...config.options }, ...(config.label ? { label: config.label } : {}), ...(config.hooks ? { hooks: true } : {}) })),
    summarizer: request.summarizer,
    ...(request.leafId ? { leafId: request.leafId } : {}),
    ...(request.priceModel ? { priceModel: request.priceModel } : {}),
    ...(request.localModelId ? { localModelId: request.localModelId } : {}),
    ...(request.dismissedProbes?.length ? { dismissedProbes: [...request.dismissedProbes] } : {}),
    ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
  };
  if (request.remote) stored.remote = { presetId: request.remote.presetId, api: request.remote.api, baseUrl: request.remote.baseUrl, model: request.remote.model };
  return stored;
}

export interface SaveComparison {
  conversationId: string;
  importId: string;
  name: string;
  request: CompareRequest | StoredCompareRequest;
  result: CompareResult;
  /** Epoch ms (default: now). */
  createdAt?: number;
}

export async function saveComparison(db: FoldlabDatabase, input: SaveComparison): Promise<ComparisonRow> {
  const row: ComparisonRow = {
    id: crypto.randomUUID(),
    conversationId: input.conversationId,
    importId: input.importId,
    createdAt: input.createdAt ?? Date.now(),
    name: cleanName(input.name),
    request: storableRequest(input.request),
    result: input.result,
  };
  await db.comparisons.add(row);
  return row;
}

/** A conversation's saved comparisons, newest first. */
export function listComparisons(db: FoldlabDatabase, conversationId: string): Promise<ComparisonRow[]> {
  return db.comparisons.where('[conversationId+createdAt]').between([conversationId, -Infinity], [conversationId, Infinity]).reverse().toArray();
}

export function getComparison(db: FoldlabDatabase, id: string): Promise<ComparisonRow | undefined> {
  return db.comparisons.get(id);
}

export async function renameComparison(db: FoldlabDatabase, id: string, name: string): Promise<void> {
  await db.comparisons.update(id, { name: cleanName(name) });
}

export async function deleteComparison(db: FoldlabDatabase, id: string): Promise<void> {
  await db.comparisons.delete(id);
}

/** Removes a conversation's comparisons and dismissed probes (when the conversation goes). */
export async function deleteComparisonsOf(db: FoldlabDatabase, conversationId: string): Promise<void> {
  await db.transaction('rw', [db.comparisons, db.dismissedProbes], async () => {
    await db.comparisons.where('conversationId').equals(conversationId).delete();
    await db.dismissedProbes.where('conversationId').equals(conversationId).delete();
  });
}

export async function dismissProbe(db: FoldlabDatabase, conversationId: string, probe: { id: string; category: string; text: string }): Promise<void> {
  await db.dismissedProbes.put({ conversationId, probeId: probe.id, dismissedAt: Date.now(), category: probe.category, text: probe.text.slice(0, 500) });
}

/** Restores one dismissed probe, or every one of the conversation when `probeId` is omitted. */
export async function restoreProbes(db: FoldlabDatabase, conversationId: string, probeId?: string): Promise<void> {
  if (probeId !== undefined) await db.dismissedProbes.delete([conversationId, probeId]);
  else await db.dismissedProbes.where('conversationId').equals(conversationId).delete();
}

export function listDismissedProbes(db: FoldlabDatabase, conversationId: string): Promise<DismissedProbeRow[]> {
  return db.dismissedProbes.where('conversationId').equals(conversationId).toArray();
}

function cleanName(name: string): string {
  const clean = name.trim().replace(/\s+/g, ' ');
  if (clean.length === 0) throw new Error('A comparison needs a name: the name cannot be empty.');
  return clean.slice(0, MAX_COMPARISON_NAME);
}
