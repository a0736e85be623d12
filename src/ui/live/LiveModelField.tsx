/**
 * The model of a new live session: the remote one configured in Settings > Models, the local
 * WebLLM model chosen there, or the scripted demo model replaying the bundled script or a JSON
 * script file the user chooses.
 */
import { useState } from 'react';
import type { LiveModelChoice } from '../../db/live-session-row.ts';
import { settingsModelLabel } from '../../store/live-model.ts';
import { LiveLocalModelOption, useLocalModelStatus } from './LiveLocalModelOption.tsx';

/** The bundled demo script, relative to the site's base URL. */
export const DEMO_SCRIPT_PATH = 'samples/live/demo-script.json';

export async function loadDemoScript(): Promise<LiveModelChoice> {
  const response = await fetch(`${import.meta.env.BASE_URL}${DEMO_SCRIPT_PATH}`);
  if (!response.ok) throw new Error(`Could not load the demo script: HTTP ${response.status}.`);
  return { kind: 'scripted', name: 'demo-script.json', script: await response.json() };
}

export type ModelDraft = { kind: 'settings' } | { kind: 'local'; modelId: string } | { kind: 'demo' } | { kind: 'script'; choice?: LiveModelChoice; error?: string };

export function LiveModelField({ draft, onChange }: { draft: ModelDraft; onChange: (draft: ModelDraft) => void }) {
  const [settings] = useState(settingsModelLabel);
  const local = useLocalModelStatus();
  const readScript = async (file: File | undefined) => {
    if (!file) return;
    try {
      onChange({ kind: 'script', choice: { kind: 'scripted', name: file.name, script: JSON.parse(await file.text()) as unknown } });
    } catch (error) {
      onChange({ kind: 'script', error: `${file.name} is not JSON: ${error instanceof Error ? error.message : String(error)}` });
    }
  };
  return (
    <fieldset className="options" data-testid="live.setup.model">
      <legend>Model</legend>
      <label className="field inline">
        <input type="radio" name="live-model" checked={draft.kind === 'settings'} disabled={settings.problem !== undefined} onChange={() => onChange({ kind: 'settings' })} data-testid="live.setup.model.settings" />
        <span>Settings: {settings.label ?? 'none usable'}</span>
      </label>
      {settings.problem && <p className="muted small">{settings.problem}</p>}
      {local !== null && <LiveLocalModelOption status={local} checked={draft.kind === 'local'} onSelect={() => local && onChange({ kind: 'local', modelId: local.modelId })} />}
      <label className="field inline">
        <input type="radio" name="live-model" checked={draft.kind === 'demo'} onChange={() => onChange({ kind: 'demo' })} data-testid="live.setup.model.demo" />
        <span>Scripted (demo): the bundled script, made for the demo folder (tiny-parser)</span>
      </label>
      <label className="field inline">
        <input type="radio" name="live-model" checked={draft.kind === 'script'} onChange={() => onChange({ kind: 'script' })} data-testid="live.setup.model.script" />
        <span>Scripted: a JSON script file</span>
      </label>
      {draft.kind === 'script' && (
        <label className="field">
          <span className="small">Script file (steps of text, tool calls, errors)</span>
          <input type="file" accept=".json,application/json" onChange={(event) => void readScript(event.target.files?.[0])} data-testid="live.setup.script-input" />
        </label>
      )}
      {draft.kind === 'script' && draft.error && <p className="error small" role="alert">{draft.error}</p>}
    </fieldset>
  );
}
