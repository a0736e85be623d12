/**
 * Remote summarizer: a provider preset (or any OpenAI-compatible server), base URL, model and key.
 * The key stays in memory unless "Remember on this device" is ticked; Forget removes it. "Test
 * connection" makes one tiny request and says exactly what went wrong. A key is bound to the origin
 * of the base URL it was entered for: pointing the base URL elsewhere asks for the key again.
 */
import { useEffect, useState } from 'react';
import { originOf } from '../../llm/http.ts';
import { PROVIDER_PRESETS } from '../../llm/presets.ts';
import { createRemoteSummarizer } from '../../llm/remote.ts';
import { errorMessage } from '../../store/actions.ts';
import { keyring } from '../../store/keyring.ts';
import { useAppStore } from '../../store/store.ts';

export function RemoteSettings() {
  const remote = useAppStore((s) => s.remote);
  const setRemote = useAppStore((s) => s.setRemote);
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

  const test = async () => {
    setTesting(true);
    setStatus(undefined);
    try {
      const summarizer = createRemoteSummarizer({ ...remote, ...(key ? { apiKey: key, keyOrigin: origin } : {}) });
      const reply = await summarizer.summarize({
        taskId: 'connection-test', promptId: 'connection-test', prompt: 'Reply with the single word OK.', entries: [], serialized: '', vars: {}, maxTokens: 16,
        signal: AbortSignal.timeout(30_000),
      });
      setStatus({ ok: true, text: `Connected: ${reply.model} answered "${reply.text.trim().slice(0, 40)}".` });
    } catch (error) {
      setStatus({ ok: false, text: errorMessage(error) });
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
            const next = PROVIDER_PRESETS.find((p) => p.id === e.target.value);
            if (next) setRemote({ presetId: next.id, api: next.api, baseUrl: next.baseUrl });
            else setRemote({ presetId: 'custom' });
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
        <input value={remote.baseUrl} onChange={(e) => setRemote({ baseUrl: e.target.value })} data-testid="settings.remote.base-url" spellCheck={false} />
      </label>
      <label className="field">
        <span>Summarizer model (separate from your agent's model)</span>
        <input value={remote.model} onChange={(e) => setRemote({ model: e.target.value })} data-testid="settings.remote.model" spellCheck={false} />
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
      <div className="actions">
        <button type="button" onClick={() => void test()} disabled={testing} data-testid="settings.remote.test">
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
