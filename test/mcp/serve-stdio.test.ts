import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../src/mcp/gateway/create-gateway.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { waitFor } from './gateway-helpers.js';

const HANDSHAKE = [
  '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}',
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
];

async function serve(
  lines: string[],
  options: {
    maxMessageBytes?: number;
    drainTimeoutMs?: number;
    end?: string;
    signal?: AbortSignal;
  } = {},
) {
  // released before the handler runs (a slow start), the call answers at once
  let released = false;
  let release: (() => void) | undefined;
  const registry = createRegistry({
    fallbackTools: [
      {
        name: 'wait_for_release',
        description: 'Waits until the test releases it.',
        execute: () =>
          new Promise((resolve) => {
            if (released) resolve('released');
            else release = () => resolve('released');
          }),
      },
    ],
  });
  const gateway = await createGateway({ registry });
  const input = new PassThrough();
  let output = '';
  const problems: string[] = [];
  const done = gateway.serveStdio({
    input,
    write: (text) => {
      output += text;
    },
    onProblem: (problem) => problems.push(problem),
    ...options,
  });
  for (const line of lines) input.write(`${line}\n`);
  if (options.end !== undefined) input.write(options.end);
  return {
    input,
    done,
    problems,
    /** Whether the handler of wait_for_release is running. */
    running: () => release !== undefined,
    release: () => {
      released = true;
      release?.();
    },
    messages: () =>
      output
        .trim()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    close: () => gateway.close(),
  };
}

describe('serveStdio', () => {
  it('refuses a last line over the limit even without a newline, then stops', async () => {
    const session = await serve(HANDSHAKE, {
      maxMessageBytes: 300,
      end: `{"method":"tools/call","params":{"name":"x","arguments":{"t":"${'y'.repeat(400)}"}},"jsonrpc":"2.0","id":41}`,
    });
    session.input.end();
    await session.done;
    expect(session.messages().find((message) => message.id === 41)).toEqual({
      jsonrpc: '2.0',
      id: 41,
      error: {
        code: -32600,
        message: expect.stringMatching(
          /^the message is 4\d\d bytes, more than the limit of 300 bytes/,
        ),
      },
    });
    expect(session.problems).toHaveLength(1);
    await session.close();
  });

  it('stops waiting for a call the client cancelled, and for one that outlives the drain limit', async () => {
    const cancelled = await serve([
      ...HANDSHAKE,
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"wait_for_release","arguments":{}}}',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}',
    ]);
    cancelled.input.end();
    await cancelled.done;
    expect(cancelled.messages().map((message) => message.id)).toEqual(['init']);
    await cancelled.close();

    const stuck = await serve(
      [
        ...HANDSHAKE,
        '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"wait_for_release","arguments":{}}}',
      ],
      { drainTimeoutMs: 50 },
    );
    stuck.input.end();
    await stuck.done;
    expect(stuck.messages().map((message) => message.id)).toEqual(['init']);
    stuck.release();
    await stuck.close();
  });

  it('answers the call in flight, then stops', async () => {
    const session = await serve([
      ...HANDSHAKE,
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait_for_release","arguments":{}}}',
    ]);
    session.input.end();
    setTimeout(() => session.release(), 50);
    await session.done;
    expect(session.messages().at(-1)).toMatchObject({
      id: 7,
      result: { content: [{ text: 'released' }] },
    });
    await session.close();
  });

  it('stops when its signal aborts as at end of input: the call in flight is answered, later lines are not read', async () => {
    const controller = new AbortController();
    const session = await serve(
      [
        ...HANDSHAKE,
        '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"wait_for_release","arguments":{}}}',
      ],
      { signal: controller.signal },
    );
    // the input stays open: only the signal can stop the server
    await waitFor(session.running);
    controller.abort();
    session.input.write('{"jsonrpc":"2.0","id":9,"method":"ping"}\n');
    session.release();
    await session.done;
    expect(session.messages().map((message) => message.id)).toEqual(['init', 8]);
    expect(session.messages().at(-1)).toMatchObject({
      result: { content: [{ text: 'released' }] },
    });
    await session.close();
  });
});
