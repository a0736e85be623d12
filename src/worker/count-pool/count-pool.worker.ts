/** One count worker of the engine's pool (count-pool.ts): counts the shards it is sent, with its own tokenizer. */
import type { CountRequest } from './count-pool-protocol.ts';
import { countServer } from './count-pool-serve.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<CountRequest>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
};
const serve = countServer((reply, transfer) => scope.postMessage(reply, transfer ?? []));
scope.onmessage = (event) => serve(event.data);
