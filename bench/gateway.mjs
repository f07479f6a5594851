/**
 * The MCP gateway's forwarding overhead: the p50 of one `tools/call` sent through
 * `toolcap mcp --upstream` to an upstream server over stdio, against the same call sent to the
 * same server directly over stdio, measured in the same run (interleaved rounds, so both see the
 * same machine state). The upstream is the SDK fixture test/fixtures/mcp-upstreams/alpha-server.mjs.
 *
 *   node bench/gateway.mjs [--quick] [--json]
 *
 * Needs a build (`npm run build`): it starts dist/cli/toolcap.mjs. `runGatewayBench()` returns
 * the rows in bench/run.mjs's shape, for `npm run bench`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { formatDuration, percentile } from './measure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const UPSTREAM = join(root, 'test', 'fixtures', 'mcp-upstreams', 'alpha-server.mjs');
const BIN = join(root, 'dist', 'cli', 'toolcap.mjs');
const TARGET_RATIO = 1.5;

/** Times `rounds` × `perRound` sequential calls on each client, interleaved; returns the times. */
async function timeCalls(clients, { rounds, perRound, warmup }) {
  const times = clients.map(() => []);
  const call = (client, index) => client.callTool({ name: 'add', arguments: { a: index, b: 1 } });
  for (const client of clients)
    for (let index = 0; index < warmup; index++) await call(client, index);
  for (let round = 0; round < rounds; round++) {
    for (const [slot, client] of clients.entries()) {
      for (let index = 0; index < perRound; index++) {
        const start = performance.now();
        const result = await call(client, index);
        times[slot].push(performance.now() - start);
        if (result.content?.[0]?.text !== String(index + 1)) {
          throw new Error(`unexpected result: ${JSON.stringify(result)}`);
        }
      }
    }
  }
  return times;
}

/** Runs the comparison; returns one row (bench/run.mjs's row fields). */
export async function runGatewayBench({ quick = false } = {}) {
  const workDir = await mkdtemp(join(tmpdir(), 'toolcap-gateway-bench-'));
  const clients = [];
  try {
    const config = join(workDir, 'servers.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { alpha: { command: process.execPath, args: [UPSTREAM] } } }),
    );
    const connect = async (args) => {
      const client = new Client({ name: 'gateway-bench', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args,
          stderr: 'ignore',
          cwd: workDir,
        }),
      );
      clients.push(client);
      return client;
    };
    const direct = await connect([UPSTREAM]);
    const gateway = await connect([BIN, 'mcp', '--upstream', config, '--schemas', workDir]);
    const [directTimes, gatewayTimes] = await timeCalls([direct, gateway], {
      rounds: quick ? 5 : 20,
      perRound: 100,
      warmup: quick ? 200 : 500,
    });
    const value = percentile(gatewayTimes, 0.5);
    const baseline = percentile(directTimes, 0.5);
    const ratio = value / baseline;
    return [
      {
        figure: 'forwarded tools/call p50, gateway over stdio',
        value: formatDuration(value),
        raw: value,
        baselineRaw: baseline,
        baseline: `${formatDuration(baseline)} direct stdio`,
        ratio: `${ratio.toFixed(2)}x`,
        ratioValue: ratio,
        target: `≤ ${TARGET_RATIO}x`,
        result: ratio <= TARGET_RATIO ? 'pass' : 'FAIL',
      },
    ];
  } finally {
    // closing a client ends the server's stdin; the gateway stops its upstream first
    await Promise.all(clients.map((client) => client.close()));
    await rm(workDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const rows = await runGatewayBench({ quick });
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ rows }, null, 2));
  } else {
    const header = ['figure', 'value', 'baseline', 'ratio', 'target', 'result'];
    const table = rows.map((row) => header.map((key) => row[key]));
    const widths = header.map((key, column) =>
      Math.max(key.length, ...table.map((cells) => cells[column].length)),
    );
    const line = (cells) =>
      `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
    console.log(line(header));
    console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
    for (const cells of table) console.log(line(cells));
  }
}
