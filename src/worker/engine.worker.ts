/** The app's one engine worker: serves the Engine over Comlink. */
import * as Comlink from 'comlink';
import { db } from '../db/db.ts';
import { Engine } from './engine.ts';

Comlink.expose(new Engine(db));
