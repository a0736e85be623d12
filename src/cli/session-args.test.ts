import { describe, expect, it } from 'vitest';
import { parseSessionArgs, SessionUsageError } from './session-args.ts';

const base = ['--dir', 'repo', '--base-url', 'http://127.0.0.1:11434/v1', '--model', 'qwen3', '--prompt', 'hello', '--out', 's.jsonl'];

describe('session arguments', () => {
  it('reads a server session with its defaults', () => {
    const args = parseSessionArgs(base);
    expect(args).toMatchObject({ dir: 'repo', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3', api: 'openai', strategy: 'pi', window: 128_000, counter: 'o200k', prompts: ['hello'], out: 's.jsonl', json: false, gitignore: false, mentions: 'reminder', summarizer: 'model' });
  });

  it('reads --mentions reminder|paste (L8) and refuses anything else', () => {
    expect(parseSessionArgs([...base, '--mentions', 'paste']).mentions).toBe('paste');
    expect(parseSessionArgs([...base, '--mentions', 'reminder']).mentions).toBe('reminder');
    expect(() => parseSessionArgs([...base, '--mentions', 'inline'])).toThrow('--mentions must be reminder or paste; got "inline"');
  });

  it('keeps the prompts in order and reads options, window and counter', () => {
    const args = parseSessionArgs([...base, '--prompt', 'next', '--strategy', 'layered', '--option', 'contextWindow=9000', '--window', '32_000', '--counter', 'chars/4', '--api', 'anthropic', '--json', '--gitignore']);
    expect(args.prompts).toEqual(['hello', 'next']);
    expect(args).toMatchObject({ strategy: 'layered', options: { contextWindow: '9000' }, window: 32_000, counter: 'chars4', api: 'anthropic', json: true, gitignore: true });
  });

  it('reads --idle-timeout in seconds (default 60) and refuses what is not a positive number', () => {
    expect(parseSessionArgs(base).idleTimeoutMs).toBe(60_000);
    expect(parseSessionArgs([...base, '--idle-timeout', '2.5']).idleTimeoutMs).toBe(2_500);
    for (const bad of ['0', '-1', 'soon', '']) expect(() => parseSessionArgs([...base, '--idle-timeout', bad])).toThrow(/--idle-timeout must be a number of seconds above 0/);
    expect(parseSessionArgs(base).connectTimeoutMs).toBe(60_000);
    expect(parseSessionArgs([...base, '--connect-timeout', '1.5']).connectTimeoutMs).toBe(1_500);
    for (const bad of ['0', 'later']) expect(() => parseSessionArgs([...base, '--connect-timeout', bad])).toThrow(/--connect-timeout must be a number of seconds above 0/);
    expect(parseSessionArgs(base).replyTimeoutMs).toBe(300_000);
    expect(parseSessionArgs([...base, '--reply-timeout', '90']).replyTimeoutMs).toBe(90_000);
    expect(() => parseSessionArgs([...base, '--reply-timeout', '0'])).toThrow(/--reply-timeout must be a number of seconds above 0/);
  });

  it('runs from a script without a server', () => {
    const args = parseSessionArgs(['--dir', 'repo', '--script', 'replies.json', '--prompt', 'go', '--out', 'o.jsonl']);
    expect(args.script).toBe('replies.json');
    expect(args.baseUrl).toBeUndefined();
  });

  it.each([
    [['--dir', 'r', '--prompt', 'p', '--out', 'o'], /--base-url/],
    [['--dir', 'r', '--base-url', 'u', '--prompt', 'p', '--out', 'o'], /--model/],
    [['--base-url', 'u', '--model', 'm', '--prompt', 'p', '--out', 'o'], /--dir/],
    [['--dir', 'r', '--base-url', 'u', '--model', 'm', '--out', 'o'], /--prompt/],
    [['--dir', 'r', '--base-url', 'u', '--model', 'm', '--prompt', 'p'], /--out/],
    [[...base, '--strategy', 'nope'], /--strategy must be one of/],
    [[...base, '--api', 'gemini'], /--api must be/],
    [[...base, '--window', 'lots'], /--window must be/],
    [[...base, '--counter', 'bytes'], /Unknown token counter/],
    [[...base, '--option', 'novalue'], /key=value/],
    [[...base, '--script', 'x.json'], /exclude each other/],
    [[...base, '--frobnicate'], /unknown option --frobnicate/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseSessionArgs(argv)).toThrow(message);
  });

  it('never takes an API key from the command line', () => {
    for (const flag of ['--api-key', '--key', '--api-key=sk-secret']) {
      const error = (() => {
        try {
          parseSessionArgs([...base, flag, 'sk-secret']);
        } catch (caught) {
          return caught as Error;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(SessionUsageError);
      expect(error?.message).toMatch(/FOLDLAB_API_KEY/);
      expect(error?.message).not.toMatch(/sk-secret/);
    }
  });
});
