/** WebLLM's own worker (never the app's engine worker): the library, the model, its weights and the GPU device live here alone. */
import { CreateMLCEngine, deleteModelAllInfoInCache, hasModelInCache } from '@mlc-ai/web-llm';
import { serveWebLLM } from '../../llm/webllm/webllm-host.ts';

serveWebLLM(self, {
  createEngine: (modelId, { appConfig, chatOptions, onProgress }) =>
    CreateMLCEngine(modelId, { initProgressCallback: onProgress, ...(appConfig ? { appConfig } : {}) }, chatOptions),
  hasModelInCache,
  deleteModelAllInfoInCache,
});
