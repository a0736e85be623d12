/** One sweep worker (sweep-pool.ts): replays the tasks it is sent on the library's sessions. */
import { db } from '../../db/db.ts';
import type { SweepRequest } from './sweep-protocol.ts';
import { SweepReplayer, sweepServer } from './sweep-replay.ts';

const scope = self as unknown as { onmessage: ((event: MessageEvent<SweepRequest>) => void) | null; postMessage(message: unknown): void };
const serve = sweepServer(new SweepReplayer(db), (reply) => scope.postMessage(reply));
scope.onmessage = (event) => serve(event.data);
