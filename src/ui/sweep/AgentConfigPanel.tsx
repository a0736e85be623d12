/**
 * "Use in my agent": the recommended point of a sweep as the lines to paste into the agent's own
 * configuration (core/tuning/agent-config.ts makes them), with the file they go into, a copy
 * button, the sessions and numbers the point was chosen on, and what the agent cannot be set to.
 */
import { useId, useRef, useState } from 'react';
import type { AgentConfig, AgentConfigBlock, AgentId } from '../../core/tuning/agent-config.ts';
import { copyText, selectContents, type CopyOutcome } from './copy-text.ts';
import './agent-config.css';

const AGENT_NAMES: Record<AgentId, string> = { pi: 'pi', codex: 'Codex CLI', 'claude-code': 'Claude Code', opencode: 'opencode' };
const FORMAT_NAMES: Record<AgentConfigBlock['format'], string> = { json: 'JSON', toml: 'TOML', env: 'shell' };

export function AgentConfigPanel({ config }: { config: AgentConfig }) {
  const titleId = useId();
  return (
    <section className="agent-config" aria-labelledby={titleId} data-testid="agent-config.panel" data-agent={config.agent}>
      <h4 id={titleId}>Use in my agent: {AGENT_NAMES[config.agent]}</h4>
      <ConfigBlock block={config} testId="agent-config" />
      <p className="small" data-testid="agent-config.basis">{config.basis}</p>
      {config.limitation && (
        <p className="warn small" data-testid="agent-config.limitation">
          <strong>Limitation:</strong> {config.limitation}
        </p>
      )}
      {config.alternative && <ConfigBlock block={config.alternative} testId="agent-config.alternative" />}
    </section>
  );
}

/** One block: its file, where it goes, the text (monospace) and a copy button with its confirmation. */
function ConfigBlock({ block, testId }: { block: AgentConfigBlock; testId: string }) {
  const pre = useRef<HTMLPreElement>(null);
  // The outcome belongs to the text it was for: another point's block starts without one.
  const [done, setDone] = useState<{ text: string; outcome: CopyOutcome } | undefined>();
  const outcome = done?.text === block.text ? done.outcome : undefined;
  const copy = async () => {
    const text = block.text;
    const result = await copyText(text);
    if (result === 'select' && pre.current) selectContents(pre.current);
    setDone({ text, outcome: result });
  };
  return (
    <div className="agent-config-block">
      <div className="agent-config-head">
        <code data-testid={`${testId}.file`}>{block.file}</code>
        <span className="muted small">{FORMAT_NAMES[block.format]}</span>
        <button type="button" onClick={() => void copy()} data-testid={`${testId}.copy`}>
          Copy
        </button>
        <span className="small copied" role="status" aria-live="polite" data-testid={`${testId}.copied`}>
          {outcome === 'copied' ? 'Copied' : outcome === 'select' ? 'Selected: press Ctrl+C (⌘C) to copy' : ''}
        </span>
      </div>
      <p className="muted small">{block.placement}</p>
      <pre ref={pre} data-testid={testId} data-format={block.format}>
        {block.text}
      </pre>
    </div>
  );
}
