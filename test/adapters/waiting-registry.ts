import { loadRegistry } from '../../src/toolcap/load-registry.js';
import type { Registry } from '../../src/toolcap/registry.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

/**
 * A registry with one tool, `wait_for_abort`, whose handler settles only when its signal
 * aborts: a call ends as `ABORTED` (the caller's signal) or `TIMEOUT` (`timeoutMs`).
 */
export async function loadWaitingRegistry(): Promise<Registry> {
  const dir = createTempDir({
    'schemas/waiting_tools.json': makeGroup('waiting', {
      tools: [
        makeTool({
          name: 'wait_for_abort',
          input_schema: { type: 'object', properties: {} },
          metadata: {
            executor: 'waiting',
            requires_context: [],
            cost_estimate: 'low',
            latency_estimate: 'slow',
          },
        }),
      ],
    }),
    'handlers/waiting.mjs': `export function wait_for_abort(input, context, { signal }) {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve({})));
}
`,
  });
  return loadRegistry({ cwd: dir, dirs: ['schemas'], handlers: ['handlers'] });
}
