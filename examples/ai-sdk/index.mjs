// A Vercel AI SDK agent over the bundled tool groups (schemas/) and their handlers, with the
// SDK's mock model instead of a provider: no API key needed. Each step is offered only the
// tools registry.select picks; calls run through registry.execute; a failed call reaches the
// model as a tool error it can read.
//
//   npm run build && node examples/ai-sdk/index.mjs
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { loadRegistry } from 'tool-capabilities';
import { createAiSdkTools, createPrepareStep } from 'tool-capabilities/ai-sdk';

const print = (line) => process.stdout.write(`${line}\n`);
const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

// the mock model's script: two tool calls, then an answer from the tool results it was sent
const script = [
  { toolName: 'add_task', input: { title: 'Renew passport', due_date: '2026-12-01' } },
  { toolName: 'complete_task', input: { task_id: 'task_that_does_not_exist' } },
];
const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) => {
    const step = script[model.doGenerateCalls.length - 1];
    if (step !== undefined) {
      const { toolName, input } = step;
      const content = [
        {
          type: 'tool-call',
          toolCallId: `call-${toolName}`,
          toolName,
          input: JSON.stringify(input),
        },
      ];
      return {
        content,
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    }
    for (const message of prompt.filter((entry) => entry.role === 'tool')) {
      for (const part of message.content) {
        print(`model reads ${part.toolName}: ${JSON.stringify(part.output)}`);
      }
    }
    const content = [
      { type: 'text', text: 'Added "Renew passport"; there was no task to complete.' },
    ];
    return { content, finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
  },
});

const root = join(import.meta.dirname, '..', '..');
const dataDir = await mkdtemp(join(tmpdir(), 'toolcap-ai-sdk-'));
try {
  const registry = await loadRegistry({
    cwd: root,
    dirs: ['schemas'],
    handlers: ['handlers'],
    dataDir,
  });
  const result = await generateText({
    model,
    tools: createAiSdkTools(registry),
    prepareStep: createPrepareStep(registry, {
      onSelection: (selection, { stepNumber }) =>
        print(`step ${stepNumber} offers: ${selection.names.join(', ')}`),
    }),
    experimental_context: { user_id: 'demo' },
    stopWhen: stepCountIs(5),
    prompt: 'Add a task to renew my passport by December 1st, then tick off the old one.',
  });
  for (const part of result.steps.flatMap((step) => step.content)) {
    if (part.type === 'tool-result') print(`${part.toolName} -> ok`);
    if (part.type === 'tool-error') print(`${part.toolName} -> ${part.error.code}`);
  }
  print(`answer: ${result.text}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
