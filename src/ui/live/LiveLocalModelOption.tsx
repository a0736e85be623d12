/**
 * The "Local model (WebLLM)" choice of a new live session, offered when Settings > Models has a
 * local model: whether WebGPU is there, whether the model is downloaded, and whether it is already
 * on the GPU (the engine worker's copy, shared with the summaries) or loads when the session starts.
 */
import { useEffect, useState } from 'react';
import { localModelStatus, type LocalModelStatus } from '../../store/local-models.ts';
import { useAppStore } from '../../store/store.ts';

/** The local model's status, checked once per dialog; undefined while checking, null when Settings has no local model. */
export function useLocalModelStatus(): LocalModelStatus | null | undefined {
  const modelId = useAppStore((s) => s.localModelId);
  const baseUrl = useAppStore((s) => s.localModelBaseUrl);
  const [status, setStatus] = useState<LocalModelStatus>();
  useEffect(() => {
    if (!modelId) return;
    let current = true;
    void localModelStatus(modelId, baseUrl).then(
      (next) => current && setStatus(next),
      (error: unknown) => current && setStatus({ modelId, usable: false, note: `Could not check the local model: ${error instanceof Error ? error.message : String(error)}` }),
    );
    return () => {
      current = false;
    };
  }, [modelId, baseUrl]);
  if (!modelId) return null;
  return status?.modelId === modelId ? status : undefined;
}

export function LiveLocalModelOption({ status, checked, onSelect }: { status: LocalModelStatus | undefined; checked: boolean; onSelect: () => void }) {
  return (
    <>
      <label className="field inline">
        <input type="radio" name="live-model" checked={checked} disabled={!status?.usable} onChange={onSelect} data-testid="live.setup.model.local" />
        <span>Local model (WebLLM){status ? `: ${status.modelId}` : ''}</span>
      </label>
      <p className={status && !status.usable ? 'warn small' : 'muted small'} data-testid="live.setup.model.local-status">
        {status ? status.note : 'Checking WebGPU and the local model…'}
      </p>
    </>
  );
}
