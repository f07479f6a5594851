/**
 * A process between an MCP client and a stdio MCP server that only relays, for the floor rows of
 * bench/gateway.mjs (`--floor`): what any separate process in the path costs, before a gateway
 * does anything of its own.
 *
 *   node bench/gateway-relay.mjs bytes|sdk COMMAND [ARGS...]
 *
 * `bytes` copies the bytes both ways; `sdk` reads and writes JSON-RPC messages with the SDK's
 * StdioServerTransport (its own stdio) and StdioClientTransport (the server), unchanged.
 */
import { spawn } from 'node:child_process';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const [mode, command, ...args] = process.argv.slice(2);

if (mode === 'bytes') {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  process.stdin.on('data', (chunk) => child.stdin.write(chunk));
  child.stdout.on('data', (chunk) => process.stdout.write(chunk));
  process.stdin.on('end', () => child.stdin.end());
  child.on('exit', () => process.exit(0));
} else if (mode === 'sdk') {
  const upstream = new StdioClientTransport({ command, args, stderr: 'ignore' });
  const downstream = new StdioServerTransport();
  upstream.onmessage = (message) => void downstream.send(message);
  downstream.onmessage = (message) => void upstream.send(message);
  await upstream.start();
  await downstream.start();
  process.stdin.on('end', () => void upstream.close().then(() => process.exit(0)));
} else {
  process.stderr.write(`unknown mode ${JSON.stringify(mode)}; use bytes or sdk\n`);
  process.exit(2);
}
