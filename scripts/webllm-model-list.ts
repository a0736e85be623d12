/**
 * Writes src/llm/webllm/webllm-prebuilt.json: the model records of the installed @mlc-ai/web-llm
 * (prebuiltAppConfig.model_list), so the page lists models without loading the 6 MB library.
 * Run after upgrading the package: `npm run webllm:models`; webllm-models.test.ts fails until then.
 */
import { writeFileSync } from 'node:fs';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';

const OUT = new URL('../src/llm/webllm/webllm-prebuilt.json', import.meta.url);
writeFileSync(OUT, `${JSON.stringify(prebuiltAppConfig.model_list, null, 1)}\n`);
console.log(`${prebuiltAppConfig.model_list.length} model records written to src/llm/webllm/webllm-prebuilt.json`);
