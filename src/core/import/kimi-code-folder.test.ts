import { describe, expect, it } from 'vitest';
import { isKimiCodeState, kimiCodeFolderPrefix, kimiCodeSessionFolders, linkKimiCodeSubagents, planKimiCodeFolder, withKimiCodeAgent } from './kimi-code-folder.ts';
import { ImportFormatError, type ImportResult } from './types.ts';

const PATHS = ['s/state.json', 's/agents/main/wire.jsonl', 's/agents/agent-0/wire.jsonl', 's/agents/main/blobs/a.png'];
const STATE = JSON.stringify({ id: 'session_1', title: 'Fix the parser', cwd: '/w', createdAt: '2026-09-25T06:10:00.000Z', agents: { main: { type: 'main', parentAgentId: null }, 'agent-0': { type: 'sub', parentAgentId: 'main' } } });

function result(meta: ImportResult['meta'], entries: ImportResult['entries'] = []): ImportResult {
  return { format: 'kimi-code', entries, issues: [], lines: 0, ignoredLines: 0, meta };
}

describe('a Kimi Code session folder', () => {
  it('is a state.json with an agents folder, at the top or one folder down, and nothing deeper', () => {
    expect(kimiCodeFolderPrefix(PATHS)).toBe('s/');
    expect(kimiCodeFolderPrefix(PATHS.map((path) => path.slice(2)))).toBe('');
    expect(kimiCodeFolderPrefix(['a/s/state.json', 'a/s/agents/main/wire.jsonl'])).toBeUndefined();
    // Kimi CLI's folder: state.json beside wire.jsonl and subagents/.
    expect(kimiCodeFolderPrefix(['state.json', 'wire.jsonl', 'subagents/a/meta.json'])).toBeUndefined();
    expect(isKimiCodeState(STATE)).toBe(true);
    expect(isKimiCodeState(JSON.stringify({ version: 1, custom_title: 'x' }))).toBe(false);
    expect(isKimiCodeState('{')).toBe(false);
  });

  it("finds every session folder of a work directory or of the whole sessions folder picked at once, each named by its own folder", () => {
    const paths = ['sessions/wd_a_1/session_2/state.json', 'sessions/wd_a_1/session_2/agents/main/wire.jsonl', 'sessions/wd_a_1/session_1/state.json', 'sessions/wd_a_1/session_1/agents/main/wire.jsonl', 'sessions/wd_b_2/notes/state.json', 'session_index.jsonl'];
    expect(kimiCodeSessionFolders(paths)).toEqual(['sessions/wd_a_1/session_1/', 'sessions/wd_a_1/session_2/']);
    expect(kimiCodeFolderPrefix(paths)).toBeUndefined();
    expect(planKimiCodeFolder(paths, 'sessions/wd_a_1/session_2/', undefined, 'x').agents[0]!.info.sessionId).toBe('session_2');
  });

  it('plans the main agent first, named, titled and placed by state.json, then the other agents', () => {
    const plan = planKimiCodeFolder(PATHS, 's/', STATE, 's');
    expect(plan).toEqual({
      agents: [
        { info: { sessionId: 'session_1', agentId: 'main', main: true, title: 'Fix the parser', cwd: '/w', createdAt: 1790316600000 }, path: 's/agents/main/wire.jsonl' },
        { info: { sessionId: 'session_1', agentId: 'agent-0', main: false }, path: 's/agents/agent-0/wire.jsonl' },
      ],
      problems: [],
    });
  });

  it('names the session by its folder when state.json is missing, not JSON, or no object, and says which', () => {
    expect(planKimiCodeFolder(PATHS, 's/', undefined, 's').agents[0]!.info).toEqual({ sessionId: 's', agentId: 'main', main: true });
    expect(planKimiCodeFolder(PATHS, 's/', '[1]', 's').problems).toEqual([{ path: 's/state.json', message: 'not a JSON object' }]);
    const broken = planKimiCodeFolder(PATHS.map((path) => path.slice(2)), '', '{"id":', 'session_9');
    expect(broken.agents[0]!.info.sessionId).toBe('session_9');
    expect(broken.problems[0]!.message).toMatch(/^not valid JSON \(/);
  });

  it("refuses a folder without the main agent's wire, naming what it found", () => {
    expect(() => planKimiCodeFolder(['s/state.json', 's/agents/agent-0/wire.jsonl'], 's/', STATE, 's')).toThrow(
      new ImportFormatError('"session_1" is a Kimi Code session folder without its main agent\'s agents/main/wire.jsonl (found s/agents/agent-0/wire.jsonl); pick the whole session folder.'),
    );
    expect(() => planKimiCodeFolder(['state.json', 'agents/main/tool-results/x.txt'], '', undefined, 'session_2')).toThrow(/"session_2" is a Kimi Code session folder without its main agent's agents\/main\/wire\.jsonl \(its agents folder holds no wire\.jsonl\)/);
  });

  it("gives the main agent the session's id and title, and a subagent its link to the session", () => {
    const main = withKimiCodeAgent(result({ model: 'k', subagentCalls: { 'agent-0': 'Agent_4' } }), { sessionId: 'session_1', agentId: 'main', main: true, title: 'Fix the parser', cwd: '/w', createdAt: 1790316600000 });
    expect(main.meta).toEqual({ model: 'k', subagentCalls: { 'agent-0': 'Agent_4' }, sessionId: 'session_1', title: 'Fix the parser', cwd: '/w', createdAt: 1790316600000 });
    const sub = withKimiCodeAgent(result({ title: 'explore subagent', subagent: { agentId: 'agent-0', agentType: 'explore' } }), { sessionId: 'session_1', agentId: 'agent-0', main: false });
    expect(sub.meta).toEqual({ title: 'explore subagent', sessionId: 'session_1', subagent: { agentId: 'agent-0', agentType: 'explore', parentSessionId: 'session_1' } });
  });

  it('links each subagent to the Agent call whose result named it, with its type and description', () => {
    const call = { id: 'l5', index: 0, parentId: null, role: 'assistant' as const, kind: 'message' as const, sourceType: 'loop/tool.call', line: 5, blocks: [{ type: 'tool_call' as const, callId: 'Agent_4', name: 'Agent', input: { description: 'Find callers', prompt: 'List them', subagent_type: 'explore' } }] };
    const session = result({ sessionId: 's', subagentCalls: { 'agent-0': 'Agent_4' } }, [call]);
    const named = result({ sessionId: 's', subagent: { agentId: 'agent-0', parentSessionId: 's' } });
    const stray = result({ sessionId: 's', subagent: { agentId: 'agent-7', parentSessionId: 's' } });
    const linked = linkKimiCodeSubagents(session, [named, stray]);
    expect(linked.threads!.map((thread) => thread.meta)).toEqual([
      { sessionId: 's', title: 'Find callers', subagent: { agentId: 'agent-0', parentSessionId: 's', parentToolUseId: 'Agent_4', agentType: 'explore', description: 'Find callers' } },
      { sessionId: 's', subagent: { agentId: 'agent-7', parentSessionId: 's' } },
    ]);
    expect(linkKimiCodeSubagents(session, [])).toBe(session);
  });
});
