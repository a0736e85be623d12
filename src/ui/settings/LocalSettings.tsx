/**
 * Local summarizer (WebGPU in the tab): what the browser offers, the small WebLLM models that fit,
 * which are cached, download with progress and Cancel, delete, storage used. Without WebGPU the
 * option is disabled with the reason.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../../store/actions.ts';
import { deleteLocalModel, detectWebGPU, downloadLocalModel, listLocalModels, localModelCache, type StorageInfo, type WebGPUStatus } from '../../store/local-models.ts';
import { useAppStore } from '../../store/store.ts';
import { useOnline } from '../common/OfflineNotice.tsx';

export function useWebGPU(): WebGPUStatus | undefined {
  const [status, setStatus] = useState<WebGPUStatus>();
  useEffect(() => {
    void detectWebGPU().then(setStatus);
  }, []);
  return status;
}

export function LocalSettings({ gpu }: { gpu: WebGPUStatus | undefined }) {
  const models = useMemo(() => listLocalModels(), []);
  const online = useOnline();
  const localModelId = useAppStore((s) => s.localModelId);
  const setLocalModel = useAppStore((s) => s.setLocalModel);
  const baseUrl = useAppStore((s) => s.localModelBaseUrl);
  const setBaseUrl = useAppStore((s) => s.setLocalModelBaseUrl);
  const [cached, setCached] = useState<Record<string, boolean>>({});
  const [storage, setStorage] = useState<StorageInfo>();
  const [progress, setProgress] = useState<{ id: string; progress: number; text: string; timeElapsed: number }>();
  const [error, setError] = useState<string>();
  const loading = useRef<AbortController>(undefined);

  const refresh = async () => {
    const state = await localModelCache(models, baseUrl);
    setCached(state.cached);
    setStorage(state.storage);
  };
  useEffect(() => {
    if (gpu?.available) void refresh();
    // refresh reads the stable model list and the base URL of the moment
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [gpu?.available]);

  if (!gpu) return <p className="muted">Checking WebGPU…</p>;
  if (!gpu.available) {
    return (
      <p className="warn" data-testid="settings.local.unavailable">
        Local models are unavailable: {gpu.reason} Use the offline summarizer or a remote provider instead.
      </p>
    );
  }

  const download = async (id: string) => {
    setError(undefined);
    const controller = new AbortController();
    loading.current = controller;
    try {
      await downloadLocalModel(id, baseUrl, (report) => setProgress({ id, ...report }), controller.signal);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      loading.current = undefined;
      setProgress(undefined);
      void refresh();
    }
  };

  const eta = progress && progress.progress > 0.01 ? Math.round((progress.timeElapsed / progress.progress) * (1 - progress.progress)) : undefined;
  return (
    <div data-testid="settings.local">
      <p className="small">
        WebGPU: {gpu.adapter ? `${gpu.adapter.vendor} ${gpu.adapter.architecture}` : 'available'} · shader-f16 {gpu.shaderF16 ? 'supported' : 'not supported (f32 models only)'}
        {storage?.usage !== undefined && ` · storage used ${(storage.usage / 1024 / 1024).toFixed(0)} MB${storage.quota ? ` of ${(storage.quota / 1024 / 1024 / 1024).toFixed(1)} GB` : ""}`}
      </p>
      <label className="field">
        <span>Self-hosted model files (optional base URL, e.g. models/ on this site, for offline use)</span>
        <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="models/" spellCheck={false} data-testid="settings.local.base-url" />
      </label>
      {progress && (
        <div className="progress" role="status">
          <div className="progress-label">
            <span>Downloading {progress.id}: {Math.round(progress.progress * 100)}%</span>
            {eta !== undefined && <span className="muted">about {eta} s left</span>}
            <button type="button" className="link" onClick={() => loading.current?.abort()}>Cancel</button>
          </div>
          <progress max={1} value={progress.progress} />
          <span className="muted small">{progress.text}</span>
        </div>
      )}
      {error && <p className="error" role="alert">{error}</p>}
      <table className="small models-table">
        <thead>
          <tr><th /><th>Model</th><th>VRAM</th><th>Download</th><th>Cached</th><th /></tr>
        </thead>
        <tbody>
          {models.map((m) => (
            <tr key={m.id}>
              <td><input type="radio" name="local-model" checked={localModelId === m.id} disabled={!cached[m.id] || (m.f16 && !gpu.shaderF16)} onChange={() => setLocalModel(m.id)} aria-label={`Use ${m.id}`} /></td>
              <td>{m.id}</td>
              <td>{m.vramMB.toLocaleString('en-US')} MB</td>
              <td>{m.downloadMB ? `~${m.downloadMB.toLocaleString('en-US')} MB` : 'unknown'}</td>
              <td>{cached[m.id] ? 'yes' : 'no'}</td>
              <td>
                {cached[m.id] ? (
                  <button type="button" className="link danger" onClick={() => void deleteLocalModel(m.id, baseUrl).then(refresh)}>Delete</button>
                ) : (
                  <button type="button" className="link" disabled={!!progress || !online || (m.f16 && !gpu.shaderF16)} title={online ? undefined : 'Downloading a model needs the network'} onClick={() => void download(m.id)}>Download</button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
