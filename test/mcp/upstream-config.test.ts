import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseUpstreamConfig, readUpstreamConfig } from '../../src/mcp/gateway/upstream-config.js';
import { createTempDir } from '../helpers/temp-files.js';

/** `${NAME}` as the configuration writes it. */
const ref = (name: string) => `\${${name}}`;

const parse = (value: unknown, env: Record<string, string> = {}) =>
  parseUpstreamConfig(JSON.stringify(value, null, 2), { file: 'servers.json', env }, '/base');

describe('parseUpstreamConfig', () => {
  it('reads stdio and HTTP servers in file order, each named as a group', () => {
    const config = parse({
      mcpServers: {
        GitHub: { command: 'npx', args: ['-y', 'server-github'], env: { TOKEN: 't' }, cwd: 'srv' },
        'brave-search': { type: 'http', url: 'https://example.com/mcp', headers: { 'X-Key': 'k' } },
      },
    });
    expect(config.servers).toEqual([
      {
        transport: 'stdio',
        name: 'GitHub',
        group: 'git_hub',
        command: 'npx',
        args: ['-y', 'server-github'],
        env: { TOKEN: 't' },
        cwd: '/base/srv',
      },
      {
        transport: 'http',
        name: 'brave-search',
        group: 'brave_search',
        url: 'https://example.com/mcp',
        headers: { 'X-Key': 'k' },
      },
    ]);
  });

  it('expands variable references (with defaults) and names an unset variable', () => {
    const config = parse(
      {
        mcpServers: {
          api: {
            url: `https://${ref('HOST')}/mcp`,
            headers: { Authorization: `Bearer ${ref('TOKEN')}`, Region: ref('REGION:-eu') },
          },
        },
      },
      { HOST: 'api.example.com', TOKEN: 'secret' },
    );
    expect(config.servers[0]).toMatchObject({
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer secret', Region: 'eu' },
    });
    expect(() =>
      parse({ mcpServers: { api: { command: 'run', args: [ref('MISSING')] } } }),
    ).toThrow(
      /^servers\.json:\d+:\d+: mcpServers\.api\.args\[0\] uses \$\{MISSING\}, which is not set; set the environment variable or write \$\{MISSING:-default\}$/,
    );
  });

  it('skips disabled servers and keeps group names unique', () => {
    const config = parse({
      mcpServers: {
        'my-server': { command: 'a' },
        my_server: { command: 'b' },
        off: { command: 'c', disabled: true },
      },
    });
    expect(config.servers.map((server) => server.group)).toEqual(['my_server', 'my_server_2']);
    expect(config.notes).toEqual([
      'server "my_server" forms group "my_server_2" ("my_server" is taken by another server)',
      'server "off" is disabled in servers.json; skipped',
    ]);
  });

  it.each([
    [
      {},
      'servers.json:1:1: mcpServers is missing: write {"mcpServers": {"name": {"command": "..."}}}',
    ],
    [{ mcpServers: [] }, 'mcpServers must be an object of servers by name'],
    [{ mcpServers: {} }, 'mcpServers names no enabled server'],
    [
      { mcpServers: { a: 'npx' } },
      'mcpServers.a must be an object ({"command": ...} or {"url": ...})',
    ],
    [{ mcpServers: { a: {} } }, 'mcpServers.a.command is missing (the program to start)'],
    [{ mcpServers: { a: { command: 'x', url: 'http://h' } } }, 'has both "command" and "url"'],
    [
      { mcpServers: { a: { command: 'x', args: 'y' } } },
      'mcpServers.a.args must be a list of strings',
    ],
    [
      { mcpServers: { a: { command: 'x', env: { K: 1 } } } },
      'mcpServers.a.env.K must be a string, got a number',
    ],
    [{ mcpServers: { a: { url: 'not a url' } } }, 'mcpServers.a.url is not a URL: "not a url"'],
    [{ mcpServers: { a: { url: 'ftp://h/x' } } }, 'must be an http:// or https:// URL, got ftp:'],
    [
      { mcpServers: { a: { type: 'sse', url: 'http://h/sse' } } },
      'the legacy transport, which is not supported',
    ],
    [
      { mcpServers: { a: { type: 'ws', url: 'http://h' } } },
      'mcpServers.a.type must be "stdio" or "http", got "ws"',
    ],
    [{ mcpServers: { a: { command: 'x' } }, servers: {} }, 'servers is given next to "mcpServers"'],
  ])('rejects %j with a message naming the field', (value, message) => {
    expect(() => parse(value)).toThrow(message);
  });

  it('accepts the VS Code "servers" key and reports bad JSON with its position', () => {
    expect(parse({ servers: { a: { type: 'stdio', command: 'x' } } }).servers).toHaveLength(1);
    expect(() => parseUpstreamConfig('{"mcpServers": {', { file: 'c.json' })).toThrow(
      /^c\.json:1:\d+: invalid JSON: /,
    );
    // the position is where the text goes wrong, as for every other mistake in the file
    expect(() =>
      parseUpstreamConfig('{"mcpServers": {"a": {"command": "x"},}}', { file: 'trailing.json' }),
    ).toThrow(/^trailing\.json:1:39: invalid JSON: /);
    // an empty file says what it should hold, not only that it holds nothing
    for (const text of ['', '  \n']) {
      expect(() => parseUpstreamConfig(text, { file: 'c.json' })).toThrow(
        'c.json: is empty; it should name the MCP servers to run behind the gateway, as MCP clients write them: {"mcpServers": {"name": {"command": "...", "args": ["..."]}}} (or {"url": "..."} for an HTTP server)',
      );
    }
  });

  it('reads a file, resolving cwd against its directory, and names an unreadable one', async () => {
    const dir = createTempDir({
      'conf/servers.json': { mcpServers: { a: { command: 'x', cwd: 'work' } } },
      'conf/work/.keep': '',
    });
    const config = await readUpstreamConfig(join(dir, 'conf', 'servers.json'), {
      file: 'conf/servers.json',
    });
    expect(config.servers[0]).toMatchObject({ cwd: join(dir, 'conf', 'work') });
    await expect(readUpstreamConfig(join(dir, 'nope.json'), { file: 'nope.json' })).rejects.toThrow(
      /^cannot read the upstream configuration nope\.json: ENOENT/,
    );
  });

  it('refuses a cwd that is not an existing directory when it reads the file', async () => {
    const dir = createTempDir({
      'missing.json': { mcpServers: { a: { command: 'node', cwd: 'nope-dir' } } },
      'file.json': { mcpServers: { a: { command: 'node', cwd: 'file.json' } } },
    });
    await expect(
      readUpstreamConfig(join(dir, 'missing.json'), { file: 'missing.json' }),
    ).rejects.toThrow(
      `missing.json:5:7: mcpServers.a.cwd names the directory ${join(dir, 'nope-dir')}, which does not exist; create it or fix the path (a relative cwd is resolved against the directory of missing.json)`,
    );
    await expect(readUpstreamConfig(join(dir, 'file.json'), { file: 'file.json' })).rejects.toThrow(
      `file.json:5:7: mcpServers.a.cwd names ${join(dir, 'file.json')}, which is not a directory`,
    );
    // a disabled server is not started: its cwd does not matter
    const disabled = createTempDir({
      'servers.json': {
        mcpServers: { a: { command: 'node' }, b: { command: 'node', cwd: 'gone', disabled: true } },
      },
    });
    const config = await readUpstreamConfig(join(disabled, 'servers.json'), {
      file: 'servers.json',
    });
    expect(config.servers.map((server) => server.name)).toEqual(['a']);
  });

  it.each([
    ['yes', 'mcpServers.a.disabled must be true or false, got "yes"'],
    [1, 'mcpServers.a.disabled must be true or false, got 1'],
    [null, 'mcpServers.a.disabled must be true or false, got null'],
  ])('refuses "disabled": %j', (value, message) => {
    expect(() => parse({ mcpServers: { a: { command: 'x', disabled: value } } })).toThrow(
      /^servers\.json:5:7: /,
    );
    expect(() => parse({ mcpServers: { a: { command: 'x', disabled: value } } })).toThrow(message);
    expect(parse({ mcpServers: { a: { command: 'x', disabled: false } } }).servers).toHaveLength(1);
  });

  it('suggests the field a typo was meant to be, and ignores the fields other clients add', () => {
    expect(() => parse({ mcpServers: { a: { comand: 'node', args: ['s.js'] } } })).toThrow(
      'servers.json:4:7: mcpServers.a.comand is not a field of a server; did you mean "command"? (fields: command, args, env, cwd, url, headers, type, disabled)',
    );
    expect(() => parse({ mcpServers: { a: { url: 'http://h/mcp', header: {} } } })).toThrow(
      'mcpServers.a.header is not a field of a server; did you mean "headers"?',
    );
    expect(() => parse({ mcpServers: { a: { command: 'x', disable: true } } })).toThrow(
      'mcpServers.a.disable is not a field of a server; did you mean "disabled"?',
    );
    const config = parse({
      mcpServers: {
        a: {
          command: 'x',
          alwaysAllow: ['read'],
          autoApprove: [],
          timeout: 60,
          envFile: '.env',
          description: 'a server',
          trust: true,
        },
      },
    });
    expect(config.servers).toHaveLength(1);
    expect(config.notes).toEqual([]);
  });
});
