/**
 * The "Local model (WebLLM)" choice of a new live session, offered when Settings > Models has a
 * local model: whether WebGPU is there, whether the model is downloaded, and whether it is already
 * on the GPU (the engine worker's copy, shared with the summaries) or loads when the session starts.
 */
import { useEffect, useState } from 'react';
import { detectWebGPU } from '../../llm/webllm/webgpu.ts';
import { useAppStore } from '../../store/store.ts';
import { localModelState } from '../../store/live-local-model.ts';

/** What the option says about the local model; `usable` enables it. */
export interface LocalModelStatus {
  modelId: string;
  usable: boolean;
  /** One sentence: why it cannot be used, or what Start will do. */
  note: string;
}

async function localModelStatus(modelId: string, baseUrl: string): Promise<LocalModelStatus> {
  const gpu = await detectWebGPU();
  if (!gpu.available) return { modelId, usable: false, note: `WebGPU is missing, so the local model cannot run in this browser: ${gpu.reason ?? 'no adapter'}.` };
  const models = await import('../../llm/webllm/webllm-models.ts');
  const info = models.listLocalModels(Number.POSITIVE_INFINITY).find((model) => model.id === modelId);
  if (info?.f16 && !gpu.shaderF16) return { modelId, usable: false, note: `${modelId} needs shader-f16, which this GPU lacks: choose an f32 (q4f32) model in Settings > Models.` };
  const held = await localModelState();
  if (held?.modelId === modelId && held.state === 'ready') return { modelId, usable: true, note: 'Loaded on the GPU; the session shares it with the summaries (no second copy).' };
  let appConfig: ReturnType<typeof models.selfHostedConfig> | undefined;
  try {
    appConfig = baseUrl.trim() ? models.selfHostedConfig(baseUrl.trim(), modelId) : undefined;
  } catch (error) {
    return { modelId, usable: false, note: error instanceof Error ? error.message : String(error) };
  }
  const cached = (await models.mayHaveCachedModels()) && (await models.isCached(modelId, appConfig));
  if (!cached) return { modelId, usable: false, note: `${modelId} is not downloaded: download it in Settings > Models first.` };
  const vram = info ? ` (about ${info.vramMB.toLocaleString('en-US')} MB of GPU memory)` : '';
  return { modelId, usable: true, note: `Downloaded, not loaded yet: Start loads it onto the GPU from the browser's cache${vram}, shared with the summaries.` };
}

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
