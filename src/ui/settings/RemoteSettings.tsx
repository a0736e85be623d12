/**
 * Remote summarizer: a provider preset (or any OpenAI-compatible server), base URL, model and key,
 * edited as a draft: it becomes the summarizer only when the user saves it, and a preset never
 * carries another's model name (remote-draft.ts). The key stays in memory unless "Remember on
 * this device" is ticked; Forget removes it. "Test connection" makes one tiny request with the
 * draft, says exactly what went wrong, and changes nothing. A key is bound to the origin of the
 * base URL it was entered for: pointing the base URL elsewhere asks for the key again.
 */
import { useEffect, useState } from 'react';
import { errorMessage } from '../../store/actions.ts';
import { keyring } from '../../store/keyring.ts';
import type { RemoteSettings as Remote } from '../../store/models-slice.ts';
import { draftForPreset, draftProblem, sameRemote, testRemoteConnection } from '../../store/remote-draft.ts';
import { useAppStore } from '../../store/store.ts';
import { originOf, PROVIDER_PRESETS } from '../../store/view/model-settings.ts';

export function RemoteSettings() {
  const saved = useAppStore((s) => s.remote);
  const kind = useAppStore((s) => s.summarizerKind);
  const setRemote = useAppStore((s) => s.setRemote);
  const setKind = useAppStore((s) => s.setSummarizerKind);
  const [remote, setDraft] = useState<Remote>(saved);
  const edit = (change: Partial<Remote>) => {
    setDraft((draft) => ({ ...draft, ...change }));
    setStatus(undefined);
  };
  const inUse = kind === 'remote' ? `${saved.presetId} · ${saved.model}` : kind === 'local' ? 'the local model' : 'offline';
  const problem = draftProblem(remote);
  const unchanged = kind === 'remote' && sameRemote(remote, saved);
  const [key, setKey] = useState('');
  const [remember, setRemember] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string }>();
  const [testing, setTesting] = useState(false);
  /** Why the key field is empty though a key was kept: it was saved for another endpoint, or before keys were bound. */
  const [askAgain, setAskAgain] = useState<string>();
  const preset = PROVIDER_PRESETS.find((p) => p.id === remote.presetId);
  const origin = originOf(remote.baseUrl);

  useEffect(() => {
    let live = true;
    void keyring.get(remote.presetId).then((stored) => {
      if (!live) return;
      const matches = stored !== undefined && stored.origin === origin;
      setKey(matches ? stored.key : '');
      setRemember(matches && keyring.isRemembered(remote.presetId));
      if (stored && !matches) setAskAgain(`The key you entered was saved for ${stored.origin || 'another base URL'}; the base URL now points at ${origin || 'an invalid address'}. Enter the key again to use it there.`);
      else if (!stored && keyring.wasUnbound(remote.presetId)) setAskAgain('Your remembered key was saved before keys were tied to their endpoint: enter it again for this base URL.');
      else setAskAgain(undefined);
    });
    return () => {
      live = false;
    };
  }, [remote.presetId, origin]);

  const saveKey = async (value: string, rememberIt: boolean) => {
    setKey(value);
    setRemember(rememberIt);
    setAskAgain(undefined);
    await keyring.set(remote.presetId, value, rememberIt, remote.baseUrl);
  };

  const save = () => {
    const trimmed = { ...remote, baseUrl: remote.baseUrl.trim(), model: remote.model.trim() };
    setRemote(trimmed);
    setKind('remote');
    setDraft(trimmed);
    setStatus({ ok: true, text: `Saved: compaction now summarizes with ${trimmed.presetId} · ${trimmed.model}.` });
  };

  const test = async () => {
    setTesting(true);
    setStatus(undefined);
    try {
      const reply = await testRemoteConnection(remote, key);
      const next = unchanged ? '' : ' Save to summarize with it.';
      setStatus({ ok: true, text: `Connected: ${reply.model} answered "${reply.text.trim().slice(0, 40)}".${next}` });
    } catch (error) {
      setStatus({ ok: false, text: `Test failed: ${errorMessage(error).replace(/[.\s]*$/, '.')} Nothing was changed: the summarizer is still ${inUse}.` });
    } finally {
      setTesting(false);
    }
  };

  return (
    <div className="remote-settings" data-testid="settings.remote">
      <label className="field">
        <span>Provider</span>
        <select
          value={remote.presetId}
          onChange={(e) => {
            setDraft(draftForPreset(saved, remote, e.target.value));
            setStatus(undefined);
          }}
          data-testid="settings.remote.preset"
        >
          {PROVIDER_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>{p.label}</option>
          ))}
          <option value="custom">Other OpenAI-compatible server</option>
        </select>
      </label>
      {preset?.hint && <p className="muted small">{preset.hint}</p>}
      <label className="field">
        <span>Base URL</span>
        <input value={remote.baseUrl} onChange={(e) => edit({ baseUrl: e.target.value })} data-testid="settings.remote.base-url" spellCheck={false} />
      </label>
      <label className="field">
        <span>Summarizer model (separate from your agent's model)</span>
        <input value={remote.model} onChange={(e) => edit({ model: e.target.value })} placeholder="the model's name on this server" data-testid="settings.remote.model" spellCheck={false} />
      </label>
      <label className="field">
        <span>API key {preset && !preset.needsKey ? '(not needed for this server)' : ''}</span>
        <input type="password" autoComplete="off" value={key} onChange={(e) => void saveKey(e.target.value, remember)} data-testid="settings.remote.key" spellCheck={false} />
      </label>
      {askAgain && <p className="muted small" role="status" data-testid="settings.remote.key-again">{askAgain}</p>}
      <label className="field inline">
        <input type="checkbox" checked={remember} onChange={(e) => void saveKey(key, e.target.checked)} data-testid="settings.remote.remember" />
        <span>Remember on this device (stored apart from your conversations; never exported)</span>
      </label>
      {problem && <p className="muted small" data-testid="settings.remote.problem">{problem}</p>}
      <div className="actions">
        <button type="button" className="primary" onClick={save} disabled={problem !== undefined || unchanged} data-testid="settings.remote.save">
          {unchanged ? 'Saved: in use' : 'Save and use'}
        </button>
        <button type="button" onClick={() => void test()} disabled={testing || problem !== undefined} data-testid="settings.remote.test">
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        <button type="button" className="danger" onClick={() => void keyring.forget(remote.presetId).then(() => { setKey(''); setRemember(false); })} data-testid="settings.remote.forget">
          Forget key
        </button>
      </div>
      {status && (
        <p className={status.ok ? 'ok' : 'error'} role="status" data-testid="settings.remote.status">
          {status.text}
        </p>
      )}
    </div>
  );
}
