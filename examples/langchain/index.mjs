// A LangChain.js tool loop over the bundled tool groups (schemas/) and their handlers, with
// LangChain's fake chat model instead of a provider: no API key needed. The model is bound to
// the tools registry.select picks for the message; each tool call runs through
// registry.execute and comes back as a ToolMessage (status "error" for a failed call, with a
// text the model can read).
//
//   npm run build && node examples/langchain/index.mjs
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { loadRegistry } from 'tool-capabilities';
import { createLangChainTools } from 'tool-capabilities/langchain';

const print = (line) => process.stdout.write(`${line}\n`);

// what the fake model answers, turn by turn: two tool calls, then text
const script = [
  { name: 'add_task', args: { title: 'Renew passport', due_date: '2026-12-01' } },
  { name: 'complete_task', args: { task_id: 'task_that_does_not_exist' } },
];

const root = join(import.meta.dirname, '..', '..');
const dataDir = await mkdtemp(join(tmpdir(), 'toolcap-langchain-'));
try {
  const registry = await loadRegistry({
    cwd: root,
    dirs: ['schemas'],
    handlers: ['handlers'],
    dataDir,
  });
  const message = 'Add a task to renew my passport by December 1st, then tick off the old one.';
  const context = { user_id: 'demo' };
  const tools = createLangChainTools(registry, {
    tools: registry.select(message, { context }).names,
  });
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  print(`offered: ${tools.map((tool) => tool.name).join(', ')}`);

  const messages = [new HumanMessage(message)];
  for (const [index, call] of script.entries()) {
    const chunk = new AIMessageChunk({
      content: '',
      tool_calls: [{ ...call, id: `call-${index}`, type: 'tool_call' }],
    });
    const reply = await new FakeStreamingChatModel({ chunks: [chunk] })
      .bindTools(tools)
      .invoke(messages);
    messages.push(reply);
    for (const toolCall of reply.tool_calls ?? []) {
      const tool = toolsByName.get(toolCall.name);
      const result = await tool.invoke({ ...toolCall, type: 'tool_call' }, { context });
      messages.push(result);
      print(`model reads ${toolCall.name} (${result.status}): ${result.content}`);
    }
  }
  const text = 'Added "Renew passport"; there was no task to complete.';
  const answer = await new FakeStreamingChatModel({ responses: [new AIMessage(text)] }).invoke(
    messages,
  );
  print(`answer: ${answer.content}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
