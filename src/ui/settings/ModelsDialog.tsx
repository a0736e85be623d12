/**
 * Settings > Models: choose the summarizer — Offline (default), Local (WebGPU) or Remote. Offline
 * and Local take effect when chosen; Remote shows its configuration, which is used once saved.
 */
import { useEffect, useRef, useState } from 'react';
import { useAppStore } from '../../store/store.ts';
import type { SummarizerKind } from '../../store/models-slice.ts';
import { LocalSettings, useWebGPU } from './LocalSettings.tsx';
import { RemoteSettings } from './RemoteSettings.tsx';
import { TimeoutSettings } from './TimeoutSettings.tsx';

const KINDS: Array<{ id: SummarizerKind; label: string; hint: string }> = [
  { id: 'offline', label: 'Offline', hint: 'Deterministic, no model: extracts requests, constraints, files, commands, errors.' },
  { id: 'local', label: 'Local (WebGPU)', hint: 'A small model running in this tab with WebLLM.' },
  { id: 'remote', label: 'Remote', hint: 'An OpenAI-compatible server or Anthropic, with your own key.' },
];

export function ModelsDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const kind = useAppStore((s) => s.summarizerKind);
  const setKind = useAppStore((s) => s.setSummarizerKind);
  /** The part shown: Remote is configured (and saved) before it becomes the summarizer. */
  const [shown, setShown] = useState<SummarizerKind>(kind);
  const gpu = useWebGPU();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} className="dialog settings" onClose={onClose} aria-labelledby="models-title" data-testid="settings.dialog">
      <h2 id="models-title">Models</h2>
      <fieldset className="segmented" data-testid="settings.kind">
        <legend className="visually-hidden">Summarizer</legend>
        {KINDS.map((k) => {
          const disabled = k.id === 'local' && gpu !== undefined && !gpu.available;
          return (
            <label key={k.id} title={disabled ? gpu?.reason : k.hint}>
              <input type="radio" name="summarizer" value={k.id} checked={shown === k.id} disabled={disabled} onChange={() => {
                setShown(k.id);
                if (k.id !== 'remote') setKind(k.id);
              }} data-testid={`settings.kind.${k.id}`} />
              {k.label}
            </label>
          );
        })}
      </fieldset>
      <p className="muted small">{KINDS.find((k) => k.id === shown)?.hint}</p>
      {shown === 'remote' && <RemoteSettings />}
      {shown !== 'offline' && <TimeoutSettings />}
      {(shown === 'local' || (gpu !== undefined && !gpu.available)) && <LocalSettings gpu={gpu} />}
      <div className="dialog-actions">
        <button type="button" onClick={() => ref.current?.close()} data-testid="settings.close">Done</button>
      </div>
    </dialog>
  );
}
