/**
 * For tests: a worker over a MessageChannel, as the page's worker clients see one. Its other end
 * serves `api` with Comlink; `throwUncaught` does what a browser does when the worker throws.
 */
import * as Comlink from 'comlink';
import type { WorkerLike } from './worker-loss.ts';

export class FakeWorker extends EventTarget implements WorkerLike {
  terminated = false;
  private readonly channel = new MessageChannel();

  /** `keepServedEnd`: terminating closes only the page's end, so what the dead worker served (and held) stays as it was. */
  constructor(api: object, private readonly options: { keepServedEnd?: boolean } = {}) {
    super();
    Comlink.expose(api, this.channel.port2);
    this.channel.port1.start();
  }

  postMessage(message: unknown, transfer: Transferable[] = []): void {
    if (!this.terminated) this.channel.port1.postMessage(message, transfer as never);
  }

  override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    if (type === 'message') this.channel.port1.addEventListener(type, listener as EventListener);
    else super.addEventListener(type, listener);
  }

  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    if (type === 'message') this.channel.port1.removeEventListener(type, listener as EventListener);
    else super.removeEventListener(type, listener);
  }

  terminate(): void {
    this.terminated = true;
    this.channel.port1.close();
    if (!this.options.keepServedEnd) this.channel.port2.close();
  }

  throwUncaught(message: string): void {
    this.dispatchEvent(Object.assign(new Event('error'), { message }));
  }
}
