/**
 * The MCP gateway's forwarding overhead: the p50 of one `tools/call` sent through
 * `toolcap mcp --upstream` to an upstream server over stdio, against the same call sent to the
 * same server directly over stdio, measured in the same run (interleaved rounds, so both see the
 * same machine state). The upstream is the SDK fixture test/fixtures/mcp-upstreams/alpha-server.mjs.
 *
 *   node bench/gateway.mjs [--quick] [--json] [--floor]
 *
 * `--floor` adds two rows for processes that only relay (bench/gateway-relay.mjs): one copying
 * bytes, one passing messages between the SDK's stdio transports. They show what a separate
 * process costs before the gateway does anything of its own.
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
const RELAY = join(root, 'bench', 'gateway-relay.mjs');
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

/** Runs the comparison; returns its rows (bench/run.mjs's row fields). */
export async function runGatewayBench({ quick = false, floor = false } = {}) {
  const workDir = await mkdtemp(join(tmpdir(), 'toolcap-gateway-bench-'));
  const clients = [];
  const closers = [];
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
    // the gateway inside the client's process (the library), its upstream over stdio
    const { createGateway, readUpstreamConfig } = await import('../dist/src/entries/mcp.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const { servers } = await readUpstreamConfig(config, { file: config });
    const embedded = await createGateway({ upstreams: servers });
    const session = embedded.createSession();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await session.server.connect(serverSide);
    const inProcess = new Client({ name: 'gateway-bench', version: '1.0.0' });
    await inProcess.connect(clientSide);
    clients.push(inProcess);
    closers.push(() => embedded.close());
    const relays = floor
      ? [
          await connect([RELAY, 'bytes', process.execPath, UPSTREAM]),
          await connect([RELAY, 'sdk', process.execPath, UPSTREAM]),
        ]
      : [];
    const [directTimes, gatewayTimes, inProcessTimes, bytesTimes, sdkTimes] = await timeCalls(
      [direct, gateway, inProcess, ...relays],
      { rounds: quick ? 5 : 20, perRound: 100, warmup: quick ? 200 : 500 },
    );
    const baseline = percentile(directTimes, 0.5);
    const row = (figure, times, target) => {
      const value = percentile(times, 0.5);
      const ratio = value / baseline;
      return {
        figure,
        value: formatDuration(value),
        raw: value,
        baselineRaw: baseline,
        baseline: `${formatDuration(baseline)} direct stdio`,
        ratio: `${ratio.toFixed(2)}x`,
        ratioValue: ratio,
        target: target ? `≤ ${TARGET_RATIO}x` : '—',
        result: target ? (ratio <= TARGET_RATIO ? 'pass' : 'FAIL') : 'info',
      };
    };
    return [
      row(
        'forwarded tools/call p50, gateway in the agent process (createGateway)',
        inProcessTimes,
        true,
      ),
      // no target: a separate process adds a second pair of pipe hops and wake-ups to every
      // call, and on a shared 2-core VM a process that only copies bytes already costs about
      // 1.5x the direct call (see --floor); the gateway's own work is what the row above measures
      row('forwarded tools/call p50, toolcap mcp as its own process', gatewayTimes, false),
      ...(floor
        ? [
            row('relayed tools/call p50, a process that only copies bytes', bytesTimes, false),
            row('relayed tools/call p50, a process on the SDK stdio transports', sdkTimes, false),
          ]
        : []),
    ];
  } finally {
    // closing a client ends the server's stdin; the gateway stops its upstream first
    await Promise.all(clients.map((client) => client.close()));
    for (const close of closers) await close();
    await rm(workDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const rows = await runGatewayBench({ quick, floor: process.argv.includes('--floor') });
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
