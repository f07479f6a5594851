/**
 * `tool-capabilities/ai-sdk`: the registry in the Vercel AI SDK (`ai`, an optional peer
 * dependency). A `ToolSet` whose tools run `registry.execute`, and a `prepareStep` that sets
 * each step's `activeTools` from `registry.select`.
 * @module
 */

export type { AdapterToolOptions } from '../adapters/adapter-options.js';
export {
  type AiSdkApprovalCall,
  type AiSdkToolsOptions,
  createAiSdkTools,
} from '../adapters/ai-sdk/create-ai-sdk-tools.js';
export {
  type AiSdkPrepareStep,
  type AiSdkPrepareStepOptions,
  type AiSdkStep,
  createPrepareStep,
} from '../adapters/ai-sdk/create-prepare-step.js';
