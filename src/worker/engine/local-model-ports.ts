/**
 * The ports through which live sessions reach the engine worker's local model (webllm-shared.ts):
 * one per session on the local model. Each is served until its session releases it (closed,
 * reopened, or its model failed to load); then it is forgotten and closed, so a tab that opens
 * and closes many sessions holds only the ports of the ones still open. A port whose session's
 * worker died cannot say so (a MessagePort has no end-of-life signal): the page, which keeps the
 * keys of the ports it handed to each worker, releases them by key.
 */
import { serveSharedModel, type SharedModelSource } from '../../llm/webllm/webllm-shared.ts';

export class LocalModelPorts {
  private readonly served = new Set<MessagePort>();
  /** Release from this end, by the page's key for the port. */
  private readonly byKey = new Map<string, () => Promise<void>>();

  constructor(private readonly source: SharedModelSource) {}

  /** Serves `port`; with a `key`, the page can release it later without the port (releaseKeys). */
  serve(port: MessagePort, key?: string): void {
    this.served.add(port);
    const release = serveSharedModel(port, this.source, () => {
      this.served.delete(port);
      if (key !== undefined) this.byKey.delete(key);
      port.close();
    });
    if (key !== undefined) this.byKey.set(key, release);
  }

  /** Releases the ports with these keys (a key already released, or of another worker's life, is skipped). */
  async releaseKeys(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => this.byKey.get(key)?.()));
  }

  /** Ports still served (one per open live session on the local model). */
  get size(): number {
    return this.served.size;
  }
}
