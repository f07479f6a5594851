// An OpenAI Agents SDK agent over the bundled tool groups (schemas/) and their handlers. The
// SDK has no mock model, so a small scripted `Model` stands in for OpenAI: no API key needed.
// The agent gets the tools registry.select picks for the message, as function tools translated
// for OpenAI (strict where the schema allows); calls run through registry.execute; a failed
// call reaches the model as a tool output it can read.
//
//   npm run build && node examples/openai-agents/index.mjs
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Runner, Usage } from '@openai/agents';
import { loadRegistry } from 'tool-capabilities';
import { createAgentsTools } from 'tool-capabilities/openai-agents';

const print = (line) => process.stdout.write(`${line}\n`);

/** Plays two tool calls, then answers from the tool outputs it was sent. */
class ScriptedModel {
  #script = [
    { name: 'add_task', input: { title: 'Renew passport', due_date: '2026-12-01' } },
    { name: 'complete_task', input: { task_id: 'task_that_does_not_exist' } },
  ];

  async getResponse(request) {
    const step = this.#script.shift();
    if (step !== undefined) {
      const call = {
        type: 'function_call',
        callId: `call-${step.name}`,
        name: step.name,
        arguments: JSON.stringify(step.input),
        status: 'completed',
      };
      return { usage: new Usage(), output: [call] };
    }
    for (const item of request.input.filter((entry) => entry.type === 'function_call_result')) {
      print(`model reads ${item.name}: ${JSON.stringify(item.output)}`);
    }
    const text = 'Added "Renew passport"; there was no task to complete.';
    const answer = {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text }],
    };
    return { usage: new Usage(), output: [answer] };
  }

  getStreamedResponse() {
    throw new Error('this example does not stream');
  }
}

const root = join(import.meta.dirname, '..', '..');
const dataDir = await mkdtemp(join(tmpdir(), 'toolcap-openai-agents-'));
try {
  const registry = await loadRegistry({
    cwd: root,
    dirs: ['schemas'],
    handlers: ['handlers'],
    dataDir,
  });
  const message = 'Add a task to renew my passport by December 1st, then tick off the old one.';
  const context = { user_id: 'demo' };
  const selection = registry.select(message, { context });
  const tools = createAgentsTools(registry, { tools: selection.names });
  print(
    `offered: ${tools.map((tool) => `${tool.name}${tool.strict ? ' (strict)' : ''}`).join(', ')}`,
  );
  const agent = new Agent({ name: 'assistant', model: new ScriptedModel(), tools });
  const result = await new Runner({ tracingDisabled: true }).run(agent, message, { context });
  print(`answer: ${result.finalOutput}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
