/**
 * The ports through which live sessions reach the engine worker's local model (webllm-shared.ts):
 * one per session on the local model. Each is served until its session releases it (closed,
 * reopened, or its model failed to load); then it is forgotten and closed, so a tab that opens
 * and closes many sessions holds only the ports of the ones still open.
 */
import { serveSharedModel, type SharedModelSource } from '../llm/webllm-shared.ts';

export class LocalModelPorts {
  private readonly served = new Set<MessagePort>();

  constructor(private readonly source: SharedModelSource) {}

  serve(port: MessagePort): void {
    this.served.add(port);
    serveSharedModel(port, this.source, () => {
      this.served.delete(port);
      port.close();
    });
  }

  /** Ports still served (one per open live session on the local model). */
  get size(): number {
    return this.served.size;
  }
}
