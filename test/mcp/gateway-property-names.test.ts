import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createGateway, type Gateway } from '../../src/mcp/gateway/create-gateway.js';
import { CliIoTransport } from '../helpers/cli-io-transport.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir } from '../helpers/temp-files.js';
import {
  connectClient,
  fixtureServer,
  ODD_KEYS_SERVER,
  textOf,
  waitFor,
} from './gateway-helpers.js';

const LONG_KEY = 'identifier_of_the_customer_account_whose_open_invoices_should_be_listed_in_order';
/** LONG_KEY cut to 64 characters with the FNV-1a hash of the whole key. */
const LONG_KEY_SERVED = 'identifier_of_the_customer_account_whose_open_invoices_78e9b351';
const RULE = 'they must match ^[a-zA-Z0-9_.-]{1,64}$';
const WARNING = `server "odd": 4 tool(s) have top-level property keys that the Anthropic Messages API and Bedrock Converse reject (${RULE}): odata_list ("@odata.type", "$select", "$filter" and 1 more), search_accounts ("filter[id]", "Account Number", "$top"), collide ("filter[id]", "filter(id)", "日本") and 1 more. A client that sends these tools to Claude on either (Claude Code does) gets 400 "Property keys should match pattern": the whole request fails, whichever tool it calls. toolcap mcp --safe-property-names (createGateway option safePropertyNames) serves them under names that match`;
const RENAMED = `server "odd": renamed the top-level property keys that the Anthropic Messages API and Bedrock Converse reject (${RULE}) of 4 tool(s): odata_list ("@odata.type" → "odata_type", "$select" → "select", "$filter" → "filter" and 1 more), search_accounts ("filter[id]" → "filter_id", "Account Number" → "Account_Number", "$top" → "top"), collide ("filter[id]" → "filter_id_2", "filter(id)" → "filter_id_3", "日本" → "param_5ffcbea4") and 1 more; clients see the new names, calls reach the server with its own`;

const SEARCH_ACCOUNTS_SERVED = {
  type: 'object',
  properties: {
    filter_id: { type: 'string', description: 'The account id' },
    Account_Number: { type: 'string', pattern: '^[0-9]+$' },
    top: { type: 'integer', minimum: 1, maximum: 100 },
    query: { type: 'string' },
  },
  required: ['filter_id'],
  additionalProperties: false,
};

// One real upstream process per gateway, stopped by gateway.close().
describe('a gateway over a server whose property keys Anthropic and Bedrock reject', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await createGateway({
      upstreams: [fixtureServer('odd', ODD_KEYS_SERVER)],
      callTimeoutMs: 5_000,
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('serves the keys as they are and notes once which tools have them and the fix', async () => {
    const { catalog } = gateway.status();
    expect(catalog.notes).toEqual([WARNING]);
    expect(catalog.renamedProperties).toEqual([]);
    const { client } = await connectClient(gateway);
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'search_accounts');
    expect(Object.keys(listed!.inputSchema.properties!)).toEqual([
      'filter[id]',
      'Account Number',
      '$top',
      'query',
    ]);
    const result = await client.callTool({
      name: 'search_accounts',
      arguments: { filter_id: 'a' },
    });
    expect(textOf(result)).toContain('unexpected property "filter_id"');
    await client.close();
  });
});

describe('safePropertyNames', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await createGateway({
      upstreams: [fixtureServer('odd', ODD_KEYS_SERVER)],
      safePropertyNames: true,
      expose: 'selected',
      callTimeoutMs: 5_000,
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('notes the renamed keys and reports them per tool in status()', () => {
    const { catalog } = gateway.status();
    expect(catalog.notes).toEqual([RENAMED]);
    expect(catalog.renamedProperties).toEqual([
      {
        server: 'odd',
        tool: 'odata_list',
        properties: [
          { from: '@odata.type', to: 'odata_type' },
          { from: '$select', to: 'select' },
          { from: '$filter', to: 'filter' },
          { from: '$orderby', to: 'orderby' },
        ],
      },
      {
        server: 'odd',
        tool: 'search_accounts',
        properties: [
          { from: 'filter[id]', to: 'filter_id' },
          { from: 'Account Number', to: 'Account_Number' },
          { from: '$top', to: 'top' },
        ],
      },
      {
        server: 'odd',
        tool: 'collide',
        properties: [
          { from: 'filter[id]', to: 'filter_id_2' },
          { from: 'filter(id)', to: 'filter_id_3' },
          { from: '日本', to: 'param_5ffcbea4' },
        ],
      },
      {
        server: 'odd',
        tool: 'long_keys',
        properties: [{ from: LONG_KEY, to: LONG_KEY_SERVED }],
      },
    ]);
  });

  it('shows the renamed schema in find_tools results and in the tool list', async () => {
    const { client } = await connectClient(gateway);
    const found = await client.callTool({
      name: 'find_tools',
      arguments: { query: 'search customer accounts by account number', limit: 1 },
    });
    expect(found.structuredContent).toMatchObject({
      tools: [{ name: 'search_accounts', inputSchema: SEARCH_ACCOUNTS_SERVED }],
    });
    const listed = (await client.listTools()).tools;
    expect(listed.find((tool) => tool.name === 'search_accounts')?.inputSchema).toEqual(
      SEARCH_ACCOUNTS_SERVED,
    );
    await client.close();
  });

  it('forwards a call with the new keys to the server with its own keys', async () => {
    const { client } = await connectClient(gateway);
    const result = await client.callTool({
      name: 'search_accounts',
      arguments: { filter_id: 'a1', Account_Number: '42', top: 5, query: 'acme' },
    });
    expect(result.isError).toBeUndefined();
    expect(JSON.parse(textOf(result))).toEqual({
      'filter[id]': 'a1',
      'Account Number': '42',
      $top: 5,
      query: 'acme',
    });
    // through call_tool as well
    const called = await client.callTool({
      name: 'call_tool',
      arguments: { name: 'odata_list', arguments: { odata_type: 'user', orderby: 'name' } },
    });
    expect(JSON.parse(textOf(called))).toEqual({ '@odata.type': 'user', $orderby: 'name' });
    await client.close();
  });

  it("accepts the server's own keys too", async () => {
    const { client } = await connectClient(gateway);
    const result = await client.callTool({
      name: 'call_tool',
      arguments: { name: 'search_accounts', arguments: { 'filter[id]': 'a1', top: 5 } },
    });
    expect(JSON.parse(textOf(result))).toEqual({ 'filter[id]': 'a1', $top: 5 });
    await client.close();
  });

  it('suffixes a new name another key of the tool has', async () => {
    const { client } = await connectClient(gateway);
    const found = await client.callTool({
      name: 'find_tools',
      arguments: { query: 'filter records by several spellings of an id', limit: 1 },
    });
    expect(found.structuredContent).toMatchObject({
      tools: [
        {
          name: 'collide',
          inputSchema: {
            properties: {
              filter_id: { type: 'string' },
              filter_id_2: { type: 'string' },
              filter_id_3: { type: 'string' },
              param_5ffcbea4: { type: 'string' },
            },
          },
        },
      ],
    });
    const result = await client.callTool({
      name: 'collide',
      arguments: { filter_id: 'a', filter_id_2: 'b', filter_id_3: 'c', param_5ffcbea4: 'd' },
    });
    expect(JSON.parse(textOf(result))).toEqual({
      filter_id: 'a',
      'filter[id]': 'b',
      'filter(id)': 'c',
      日本: 'd',
    });
    await client.close();
  });

  it('cuts a key over 64 characters with a hash, in properties and required', async () => {
    const { client } = await connectClient(gateway);
    const found = await client.callTool({
      name: 'find_tools',
      arguments: { query: 'list the open invoices of a customer account', limit: 1 },
    });
    expect(found.structuredContent).toMatchObject({
      tools: [
        {
          name: 'long_keys',
          inputSchema: {
            type: 'object',
            properties: { [LONG_KEY_SERVED]: { type: 'string' } },
            required: [LONG_KEY_SERVED],
          },
        },
      ],
    });
    const result = await client.callTool({
      name: 'long_keys',
      arguments: { [LONG_KEY_SERVED]: 'c-7' },
    });
    expect(JSON.parse(textOf(result))).toEqual({ [LONG_KEY]: 'c-7' });
    await client.close();
  });

  it('names in validation errors the keys the client used', async () => {
    const { client } = await connectClient(gateway);
    const call = async (args: Record<string, unknown>) =>
      textOf(
        await client.callTool({
          name: 'call_tool',
          arguments: { name: 'search_accounts', arguments: args },
        }),
      );
    expect(await call({ filter_id: 5, Account_Number: 'x', top: 0 })).toBe(
      'INVALID_INPUT: Invalid input for tool "search_accounts": /filter_id must be string; /Account_Number must match the pattern "^[0-9]+$"; /top must be >= 1. Fix these arguments and call the tool again.',
    );
    expect(await call({ query: 'acme' })).toBe(
      'INVALID_INPUT: Invalid input for tool "search_accounts": missing required property "filter_id". Fix these arguments and call the tool again.',
    );
    expect(await call({ 'filter[id]': 5 })).toBe(
      'INVALID_INPUT: Invalid input for tool "search_accounts": /filter[id] must be string. Fix these arguments and call the tool again.',
    );
    expect(await call({ filter_id: 'a', 'filter[id]': 'b' })).toBe(
      'INVALID_INPUT: Invalid input for tool "search_accounts": "filter_id" and "filter[id]" are one parameter ("filter_id" is how this gateway lists the server\'s "filter[id]"); send it once, as "filter_id". Fix these arguments and call the tool again.',
    );
    await client.close();
  });

  it('leaves a tool whose keys every API accepts as the server lists it', async () => {
    const { client } = await connectClient(gateway);
    const result = await client.callTool({
      name: 'call_tool',
      arguments: { name: 'ping', arguments: { message: 'hi', 'x-trace.id': 't1' } },
    });
    expect(JSON.parse(textOf(result))).toEqual({ message: 'hi', 'x-trace.id': 't1' });
    await client.close();
  });
});

describe('toolcap mcp --upstream with such a server', () => {
  function writeServers(): string {
    const dir = createTempDir();
    writeFileSync(
      join(dir, 'servers.json'),
      JSON.stringify({
        mcpServers: { odd: { command: process.execPath, args: [ODD_KEYS_SERVER] } },
      }),
    );
    return dir;
  }

  async function serve(
    args: string[],
  ): Promise<{ stderr: string; tools: Record<string, unknown>[] }> {
    const dir = writeServers();
    const stdin = new PassThrough();
    const transport = new CliIoTransport(stdin);
    let stderr = '';
    const exit = main(['mcp', '--upstream', 'servers.json', ...args], {
      stdout: (text) => transport.receive(text),
      stderr: (text) => {
        stderr += text;
      },
      cwd: dir,
      env: {},
      isTty: false,
      stdin,
    });
    await waitFor(() => stderr.includes('over stdio'));
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    await client.close();
    expect(await exit).toBe(0);
    return { stderr, tools: tools as unknown as Record<string, unknown>[] };
  }

  it('prints the warning once on stderr', async () => {
    const { stderr } = await serve([]);
    expect(stderr.split(`toolcap mcp: ${WARNING}\n`)).toHaveLength(2);
  });

  it('--safe-property-names serves the renamed keys and says which', async () => {
    const { stderr, tools } = await serve(['--safe-property-names']);
    expect(stderr).toContain(`toolcap mcp: ${RENAMED}\n`);
    expect(stderr).not.toContain('serves them under names that match');
    expect(tools.find((tool) => tool.name === 'search_accounts')?.inputSchema).toEqual(
      SEARCH_ACCOUNTS_SERVED,
    );
  });

  it('--safe-property-names without --upstream is a usage error', async () => {
    const result = await runCli(['mcp', '--safe-property-names'], { cwd: createTempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "toolcap: --safe-property-names renames the property keys of upstream MCP servers' tools: it only applies with --upstream FILE",
    );
  });
});
