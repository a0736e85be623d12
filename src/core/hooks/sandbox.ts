/**
 * What user code (hook modules, custom-strategy plugins) may reach: plain JavaScript and nothing of
 * its host. Before the user's module loads, its worker calls `lockdown(globalThis)`: every global
 * not on the list below is deleted from the global object and from every object on its prototype
 * chain (so `self.constructor.prototype` or `globalThis.__proto__` find nothing), what is kept is
 * made read-only, the chain is frozen, code from strings (eval, the Function constructors, string
 * timers) is refused, and `console` and the timers are replaced by wrappers that hand out nothing
 * of the host. The network (fetch, XMLHttpRequest, WebSocket, EventSource, sendBeacon, importScripts,
 * nested workers), storage (indexedDB, caches) and, in Node, process and require are therefore
 * gone. `import` is syntax, not a global: a module using it as code (static or dynamic) is refused
 * before it loads (`importProblem`; the word in a comment or string is fine), and with strings no
 * longer compiled it cannot be spelt another way.
 */
import { scanImports } from './import-scan.ts';

/** The only globals user code keeps: the ECMAScript built-ins and a few harmless helpers. */
export const SANDBOX_GLOBALS: ReadonlySet<string> = new Set([
  'globalThis', 'undefined', 'NaN', 'Infinity', 'isFinite', 'isNaN', 'parseFloat', 'parseInt',
  'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'unescape',
  'Object', 'Array', 'Number', 'Boolean', 'String', 'Symbol', 'BigInt', 'Date', 'RegExp', 'Math', 'JSON', 'Intl', 'Reflect', 'Proxy', 'Promise',
  'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry', 'Iterator',
  'Error', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError',
  'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Atomics',
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
  'console', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'structuredClone',
  'TextEncoder', 'TextDecoder', 'atob', 'btoa', 'URL', 'URLSearchParams',
]);

/**
 * Where a module uses `import` as code (which would load code or reach the network), as a load
 * error to report; the word in a comment, a string or a regular expression is allowed. Where the
 * scan met a `/` it could not place, every occurrence of the word counts (see import-scan.ts).
 */
export function importProblem(source: string): { message: string; line: number } | undefined {
  const scan = scanImports(source);
  const lineOf = (offset: number) => source.slice(0, offset).split('\n').length;
  if (scan.importAt !== undefined) {
    return { message: 'it uses `import`, and user code may not load other modules or reach the network: write the module without imports', line: lineOf(scan.importAt) };
  }
  const word = scan.ambiguousSlashAt === undefined ? null : /\bimport\b/.exec(source);
  if (!word || scan.ambiguousSlashAt === undefined) return undefined;
  return {
    message: `it has the word \`import\`, and the \`/\` on line ${lineOf(scan.ambiguousSlashAt)} may divide or start a regular expression, so Foldlab cannot tell whether the word is code: put that \`/\` in parentheses or leave the word out`,
    line: lineOf(word.index),
  };
}

function refuse(what: string): never {
  throw new TypeError(`${what} is not available to user code (no network, no storage, no code from strings)`);
}

/** Functions handed to user code that reveal nothing of the host function they call. */
function wrapConsole(host: Record<string, unknown> | undefined): Record<string, (...args: unknown[]) => void> {
  const out: Record<string, (...args: unknown[]) => void> = {};
  for (const name of ['log', 'info', 'warn', 'error', 'debug']) {
    const method = host?.[name];
    out[name] = typeof method === 'function' ? (...args: unknown[]) => void Reflect.apply(method, host, args.map((a) => (typeof a === 'object' && a !== null ? safeText(a) : a))) : () => undefined;
  }
  return Object.freeze(out);
}

function safeText(value: object): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

type Timer = (callback: unknown, ms?: number, ...args: unknown[]) => unknown;

/** Timers that take only functions and hand back numbers (a host timer object leads to the host). */
function wrapTimers(global: Record<string, unknown>): Record<string, unknown> {
  const handles = new Map<number, unknown>();
  let next = 1;
  const wrap = (host: unknown, name: string) => (callback: unknown, ms?: number, ...args: unknown[]) => {
    if (typeof callback !== 'function') refuse(`${name} with a string`);
    const id = next++;
    handles.set(id, (host as Timer)(() => {
      if (name === 'setTimeout') handles.delete(id);
      Reflect.apply(callback as (...a: unknown[]) => unknown, undefined, args);
    }, ms));
    return id;
  };
  const clear = (host: unknown) => (id: unknown) => {
    const handle = handles.get(id as number);
    handles.delete(id as number);
    if (handle !== undefined) (host as (h: unknown) => void)(handle);
  };
  return {
    setTimeout: wrap(global.setTimeout, 'setTimeout'),
    setInterval: wrap(global.setInterval, 'setInterval'),
    clearTimeout: clear(global.clearTimeout),
    clearInterval: clear(global.clearInterval),
  };
}

/** The prototype objects of the function kinds: their `constructor` compiles code from strings. */
function functionPrototypes(): object[] {
  return [function () {}, async function () {}, function* () {}, async function* () {}].map((fn) => Object.getPrototypeOf(fn) as object);
}

/**
 * Takes the host away from the code that runs next in this realm (see the file comment). Call it
 * once, after the worker has kept what it needs itself (its postMessage, the module's URL).
 */
export function lockdown(globalObject: object): void {
  const global = globalObject as Record<string, unknown>;
  const replaced: Record<string, unknown> = { console: wrapConsole(global.console as Record<string, unknown> | undefined), ...wrapTimers(global) };
  const kept = new Map<string, unknown>();
  for (const name of SANDBOX_GLOBALS) {
    if (name in replaced) kept.set(name, replaced[name]);
    else if (name === 'globalThis') kept.set(name, globalObject);
    else if (name in global) kept.set(name, global[name]);
  }
  const refused = function () {
    refuse('Compiling code from a string');
  };
  for (const proto of functionPrototypes()) {
    Object.defineProperty(proto, 'constructor', { value: refused, writable: false, configurable: false });
  }
  // The global object and every prototype above it, but Object.prototype (pure ECMAScript).
  const chain: object[] = [];
  for (let object: object | null = globalObject; object && object !== Object.prototype; object = Object.getPrototypeOf(object) as object | null) chain.push(object);
  for (const object of chain) {
    for (const key of Reflect.ownKeys(object)) {
      if (object === globalObject && typeof key === 'string' && kept.has(key)) continue;
      if (!Reflect.deleteProperty(object, key)) {
        // A property the host will not let go of (non-configurable): make it unusable instead.
        try {
          Object.defineProperty(object, key, { value: undefined, writable: false });
        } catch {
          // Left as it is: `sandboxLeaks` reports it.
        }
      }
    }
  }
  for (const [name, value] of kept) {
    try {
      Object.defineProperty(globalObject, name, { value, writable: false, configurable: false, enumerable: false });
    } catch {
      // Already a read-only built-in (undefined, NaN, Infinity).
    }
  }
  for (const object of chain) Object.freeze(object);
  // Function.prototype is the first of them.
  for (const proto of functionPrototypes()) Object.freeze(proto);
}

/** The names still reachable on the global object and its prototype chain that are not on the list (a test checks it is empty). */
export function sandboxLeaks(globalObject: object): string[] {
  const out: string[] = [];
  for (let object: object | null = globalObject; object && object !== Object.prototype; object = Object.getPrototypeOf(object) as object | null) {
    for (const key of Reflect.ownKeys(object)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(object, key) as PropertyDescriptor;
      if (typeof key === 'string' && object === globalObject && SANDBOX_GLOBALS.has(key)) continue;
      if (!descriptor.get && !descriptor.set && descriptor.value === undefined) continue;
      out.push(String(key));
    }
  }
  return out;
}
