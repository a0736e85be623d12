// The one shell reading the probes and the summarizer share: comments redirect nothing, and a
// heredoc ends only at its marker line, so a body line that merely starts with the marker, or
// names a command, is never read as one.
import { describe, expect, it } from 'vitest';
import { shellEffects } from '../probes/shell.ts';
import { shellWords } from './shell-words.ts';

describe('shellWords', () => {
  it('skips comments, not a # inside a word or quotes', () => {
    expect(shellWords("cd src\n# config -> utils/config\necho 'a # b' x#y")).toEqual([['cd', 'src'], ['echo', 'a # b', 'x#y']]);
  });

  it('ends a heredoc at its marker line only, for the probes as for the summarizer', () => {
    const script = 'cat > notes.md <<EOF\nEOFS are fine\nrm important.ts\nEOF\nrm old.md';
    expect(shellWords(script)).toEqual([['cat', '>', 'notes.md', '<<', 'EOF'], ['rm', 'old.md']]);
    expect(shellEffects(script)).toEqual([{ path: 'notes.md', kind: 'created' }, { path: 'old.md', kind: 'deleted' }]);
  });
});
