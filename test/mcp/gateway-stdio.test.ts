import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir } from '../helpers/temp-files.js';
import {
  HANDSHAKE,
  rawSession,
  startCliGateway,
  writeUpstreamConfig,
} from './cli-gateway-process.js';
import { BIN, REPO_ROOT, textOf, waitFor } from './gateway-helpers.js';

const BURST = 1_000;

// `toolcap mcp --upstream` as a process, over stdio, with both fixture servers behind it. The
// client's transport starts the gateway; closing the client ends its stdin, and the gateway
// stops its upstreams before it exits.
describe('the gateway over stdio', () => {
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';

  beforeAll(async () => {
    const dir = createTempDir();
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--upstream', writeUpstreamConfig(dir), '--schemas', dir],
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    client = new Client({ name: 'burst', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it(`answers a burst of ${BURST} calls, each with its own result`, async () => {
    const calls = Array.from({ length: BURST }, (_, index) =>
      index % 2 === 0
        ? { name: 'echo', arguments: { text: `message ${index}` }, expected: `message ${index}` }
        : { name: 'multiply', arguments: { a: index, b: 3 }, expected: String(index * 3) },
    );
    const started = performance.now();
    const results = await Promise.all(
      calls.map(({ name, arguments: args }) => client.callTool({ name, arguments: args })),
    );
    const seconds = (performance.now() - started) / 1000;
    const mismatched = results.filter((result, index) => textOf(result) !== calls[index]!.expected);
    expect(results).toHaveLength(BURST);
    expect(mismatched).toEqual([]);
    console.log(`stdio burst: ${BURST} calls answered and matched in ${seconds.toFixed(2)} s`);
  });

  it('keeps serving when an upstream is killed mid-burst: its calls fail as tool errors, it comes back', async () => {
    const whoami = async () =>
      (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent as
        | { pid?: number }
        | undefined;
    const alphaPid = (await whoami())?.pid;
    expect(alphaPid).toBeTypeOf('number');
    let betaAnswered = 0;
    let killedAt = 0;
    // alpha: a few instant echoes, then sleeps that are certainly in flight when it is killed
    const calls = Array.from({ length: BURST }, (_, index) =>
      index % 2 === 1
        ? {
            upstream: 'beta',
            name: 'multiply',
            arguments: { a: index, b: 2 },
            expected: String(index * 2),
          }
        : index < BURST / 4
          ? {
              upstream: 'alpha',
              name: 'echo',
              arguments: { text: `e${index}` },
              expected: `e${index}`,
            }
          : { upstream: 'alpha', name: 'sleep', arguments: { ms: 10_000 } },
    );
    const results = await Promise.all(
      calls.map(async (call) => {
        const result = await client.callTool({ name: call.name, arguments: call.arguments });
        if (call.upstream === 'beta' && ++betaAnswered === 50) {
          process.kill(alphaPid!, 'SIGKILL');
          killedAt = performance.now();
        }
        return result;
      }),
    );
    const failedAsToolErrors = (result: (typeof results)[number]) =>
      result.isError === true &&
      /^UPSTREAM_UNAVAILABLE: The MCP server "alpha" /.test(textOf(result));
    const beta = results.filter((_, index) => calls[index]!.upstream === 'beta');
    expect(
      beta.filter(
        (result, index) => result.isError || textOf(result) !== calls[index * 2 + 1]!.expected,
      ),
    ).toEqual([]);
    const sleeps = results.filter((_, index) => calls[index]!.name === 'sleep');
    expect(sleeps.filter((result) => !failedAsToolErrors(result))).toEqual([]);
    const echoes = results.filter((_, index) => calls[index]!.name === 'echo');
    expect(
      echoes.filter(
        (result, index) => !failedAsToolErrors(result) && textOf(result) !== `e${index * 2}`,
      ),
    ).toEqual([]);
    const alphaFailed = [...sleeps, ...echoes].filter((result) => result.isError);

    // the gateway stayed up; alpha is back (a new process) within 5 s of the kill
    let back = 0;
    await waitFor(async () => {
      const pid = (await whoami())?.pid;
      back = performance.now();
      return pid !== undefined && pid !== alphaPid;
    }, 5_000);
    const restartSeconds = (back - killedAt) / 1000;
    expect(restartSeconds).toBeLessThan(5);
    console.log(
      `killed upstream: ${alphaFailed.length} of ${sleeps.length + echoes.length} alpha calls failed as tool errors, ${beta.length} of ${beta.length} beta calls succeeded, alpha back in ${restartSeconds.toFixed(2)} s`,
    );
    expect(stderr).toMatch(
      /upstream "alpha" unavailable: the server closed the connection; retrying in \d+ ms/,
    );
  });
});

describe('stdio input the SDK alone would drop or die on', () => {
  it('answers the call in flight before exiting on end of input (3 of 3 runs)', async () => {
    for (let run = 0; run < 3; run++) {
      const gateway = startCliGateway(['--tools-dir', 'test/fixtures/external-tools']);
      const session = rawSession(gateway.child);
      for (const message of HANDSHAKE) session.send(message);
      session.send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'word_count', arguments: { text: 'a b c' } },
      });
      gateway.child.stdin.end();
      expect(await gateway.exited()).toBe(0);
      const answer = session.all.find((message) => message.id === 3);
      expect(answer).toMatchObject({ result: { structuredContent: { words: 3 } } });
    }
  });

  it('refuses an oversized message with an error and keeps serving; malformed requests get answers', async () => {
    const dir = createTempDir();
    const gateway = startCliGateway(['--upstream', writeUpstreamConfig(dir), '--schemas', dir]);
    try {
      const session = rawSession(gateway.child);
      for (const message of HANDSHAKE) session.send(message);
      await session.answer('init');
      // 11 MiB: over the SDK's own 10 MiB buffer, which used to end the server silently
      const big = 'x'.repeat(11 * 1024 * 1024);
      session.send({
        jsonrpc: '2.0',
        id: 'big',
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: big } },
      });
      expect(await session.answer('big')).toEqual({
        jsonrpc: '2.0',
        id: 'big',
        error: {
          code: -32600,
          message: expect.stringMatching(
            /^the message is 11534\d{3} bytes, more than the limit of 4194304 bytes; it was not read/,
          ),
        },
      });
      session.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: 'echo' });
      session.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: ['echo'] });
      session.send('{"jsonrpc": "2.0", "id": 4, "method": ');
      session.send({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'add', arguments: { a: 'one', b: 2 } },
      });
      session.send({
        jsonrpc: '2.0',
        id: 6,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'still here' } },
      });
      session.send({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 5, arguments: {} },
      });
      session.send({
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'echo', arguments: 5 },
      });
      session.send({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'nope', arguments: {} },
      });
      expect((await session.answer(2)).error).toEqual({
        code: -32602,
        message:
          '"params" of tools/call must be an object (MCP passes named parameters), got a string',
      });
      expect((await session.answer(3)).error).toMatchObject({
        code: -32602,
        message: expect.stringContaining('got an array'),
      });
      expect((await session.answer(null)).error).toMatchObject({ code: -32700 });
      expect((await session.answer(5)).result).toEqual({
        isError: true,
        content: [
          {
            type: 'text',
            text: 'INVALID_INPUT: Invalid input for tool "add": /a must be number. Fix these arguments and call the tool again.',
          },
        ],
      });
      expect(textOf((await session.answer(6)).result)).toBe('still here');
      expect((await session.answer(7)).error).toEqual({
        code: -32602,
        message: "tools/call needs params.name, the tool's name (a non-empty string)",
      });
      expect(textOf((await session.answer(8)).result)).toBe(
        'INVALID_INPUT: Invalid input for tool "echo": the arguments must be a JSON object of named parameters, got a number. Call it again with an object.',
      );
      // the message as written: no "MCP error -32602:" inside it for clients to show twice
      expect((await session.answer(9)).error).toEqual({
        code: -32602,
        message: 'Unknown tool: "nope".',
      });
      expect(gateway.stderr()).toContain('toolcap mcp: refused a message: the message is 115');
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });
});
