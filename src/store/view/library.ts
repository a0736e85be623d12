/** What the library says of a conversation, from the same core functions `cli inspect` prints with. */
export { subagentNote } from '../../core/import/subagent-note.ts';
