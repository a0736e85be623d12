/** The live sessions' worker: serves the LiveHost (live-host.ts) over Comlink. */
import * as Comlink from 'comlink';
import { LiveHost } from './live-host.ts';

Comlink.expose(new LiveHost());
