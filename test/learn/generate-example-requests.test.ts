import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateExampleRequests } from '../../src/migrate/generate-example-requests.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';
import { ALPHA_SERVER, BETA_SERVER } from '../mcp/gateway-helpers.js';

/** What the test server received: one entry per request. */
interface Received {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    temperature: number;
    messages: { role: string; content: string }[];
  };
  /** The tool the prompt asks about (its `Tool:` line). */
  tool: string;
}

let received: Received[] = [];
/** The message content (or HTTP error) the server answers for a tool. */
let answers: Record<string, string | { status: number; body: string }> = {};

// one local server for the file, speaking OpenAI's /v1/chat/completions; closed after the tests
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['body'];
    const prompt = body.messages.at(-1)?.content ?? '';
    const tool = /^Tool: (\S+)$/m.exec(prompt)?.[1] ?? '';
    received.push({
      path: request.url ?? '',
      authorization: request.headers.authorization,
      body,
      tool,
    });
    const answer = answers[tool] ?? '[]';
    if (typeof answer !== 'string') {
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(answer.body);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: answer } }],
      }),
    );
  });
});
let baseURL = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  received = [];
  answers = {};
});

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A calendar group: create_event (no requests), get_agenda (one), cancel_event (five). */
function project(): string {
  return createTempDir({
    'schemas/calendar_tools.json': json(
      makeGroup('calendar', {
        version: '1.2.0',
        description: 'Manage the team calendar.',
        tools: [
          makeTool({
            name: 'create_event',
            description: 'Create a calendar event.',
            input_schema: {
              type: 'object',
              properties: {
                title: { type: 'string', description: 'What the event is called' },
                start: { type: 'string' },
              },
            },
          }),
          makeTool({
            name: 'get_agenda',
            description: 'List the events of a day.',
            example_requests: ["what's on my calendar today"],
          }),
          makeTool({
            name: 'cancel_event',
            description: 'Cancel an event.',
            example_requests: [
              'cancel standup',
              'drop the 3pm',
              'call off lunch',
              'scrap friday demo',
              'kill the retro',
            ],
          }),
        ],
      }),
    ),
  });
}

function requestsOf(dir: string, tool: string): unknown {
  const group = JSON.parse(readFileSync(join(dir, 'schemas/calendar_tools.json'), 'utf8'));
  return group.tools.find((entry: { name: string }) => entry.name === tool)?.example_requests;
}

describe('generateExampleRequests', () => {
  it('asks the model about each tool with too few requests and adds what it writes', async () => {
    const dir = project();
    answers = {
      create_event:
        '```json\n["book a dentist visit Tuesday 9am", "put lunch with Sam on my schedule Friday", "set up a 1:1 with Priya next week"]\n```',
      get_agenda:
        '["anything on tomorrow?", "what does Monday look like", "am I free this afternoon?", "show me my day"]',
    };
    const report = await generateExampleRequests({
      baseURL,
      model: 'test-model',
      apiKey: 'sk-test',
      cwd: dir,
      perTool: 5,
      concurrency: 1,
    });
    // cancel_event already has five: not asked
    expect(received.map((entry) => entry.tool)).toEqual(['create_event', 'get_agenda']);
    expect(report).toMatchObject({
      model: 'test-model',
      endpoint: `${baseURL}/chat/completions`,
      requested: 2,
      complete: 1,
      failed: [],
    });
    const [first, second] = received;
    expect(first).toMatchObject({ path: '/v1/chat/completions', authorization: 'Bearer sk-test' });
    expect(first!.body).toMatchObject({ model: 'test-model', temperature: 0.7 });
    const prompt = first!.body.messages[1]!.content;
    expect(prompt).toContain('Write 5 different messages');
    expect(prompt).toContain('Description: Create a calendar event.');
    expect(prompt).toContain('Parameters: title (What the event is called); start');
    expect(prompt).toContain('Group "calendar": Manage the team calendar.');
    expect(prompt).toContain('- get_agenda: List the events of a day.');
    // a tool with requests asks for the rest, and shows the ones it has
    expect(second!.body.messages[1]!.content).toContain('Write 4 different messages');
    expect(second!.body.messages[1]!.content).toContain("- what's on my calendar today");

    expect(report.groups).toEqual([
      {
        group: 'calendar',
        file: join('schemas', 'calendar_tools.json'),
        old_version: '1.2.0',
        new_version: '1.2.1',
        changed: true,
        written: true,
        tools: [
          {
            tool: 'create_event',
            added: [
              'book a dentist visit Tuesday 9am',
              'put lunch with Sam on my schedule Friday',
              'set up a 1:1 with Priya next week',
            ],
            total: 3,
          },
          {
            tool: 'get_agenda',
            added: [
              'anything on tomorrow?',
              'what does Monday look like',
              'am I free this afternoon?',
              'show me my day',
            ],
            total: 5,
          },
        ],
      },
    ]);
    expect(requestsOf(dir, 'create_event')).toHaveLength(3);
    // what the model wrote now finds the tool: "dentist" is in no description
    const registry = await loadRegistry({ dirs: ['schemas'], cwd: dir });
    expect(registry.search('dentist appointment')[0]?.name).toBe('create_event');
  });

  it('reports a failed request or an unusable answer for its tool and writes the others', async () => {
    const dir = project();
    answers = {
      create_event: { status: 500, body: '{"error": {"message": "model overloaded"}}' },
      get_agenda: 'Sure! Here are some requests: anything on tomorrow, my day',
    };
    const first = await generateExampleRequests({ baseURL, model: 'm', cwd: dir, concurrency: 1 });
    expect(first.failed).toEqual([
      {
        group: 'calendar',
        tool: 'create_event',
        error: `POST ${baseURL}/chat/completions (model m) failed: HTTP 500 Internal Server Error: model overloaded`,
      },
      {
        group: 'calendar',
        tool: 'get_agenda',
        error: `POST ${baseURL}/chat/completions (model m) failed: the answer is not a JSON array of strings (it holds no "["): "Sure! Here are some requests: anything on tomorrow, my day"`,
      },
    ]);
    expect(first.groups).toEqual([]);
    expect(first.stopped).toBeUndefined();

    answers = {
      create_event:
        '["add a team offsite on May 3", 42, "", "Add a team offsite on May 3", "schedule a haircut"]',
      get_agenda: { status: 502, body: 'bad gateway' },
    };
    const second = await generateExampleRequests({ baseURL, model: 'm', cwd: dir, concurrency: 1 });
    expect(second.failed.map((failure) => failure.tool)).toEqual(['get_agenda']);
    expect(second.skipped).toMatchObject({ invalid: 2, duplicate: 1 });
    expect(requestsOf(dir, 'create_event')).toEqual([
      'add a team offsite on May 3',
      'schedule a haircut',
    ]);
    expect(requestsOf(dir, 'get_agenda')).toEqual(["what's on my calendar today"]);
  });

  it('reads what models wrap around the list, and fails an answer with no request', async () => {
    const dir = project();
    answers = {
      // a reasoning model thinks aloud first, brackets included; a control character is dropped
      create_event: '<think>they want ["json"] here</think>\n["plan a picnic\\u0007 on Sunday"]',
      get_agenda: '[["nested"], {"request": "x"}, "  "]',
    };
    const report = await generateExampleRequests({
      // the endpoint itself, pasted whole
      baseURL: `${baseURL}/chat/completions`,
      model: 'm',
      cwd: dir,
      concurrency: 1,
    });
    expect(received.map((entry) => entry.path)).toEqual([
      '/v1/chat/completions',
      '/v1/chat/completions',
    ]);
    expect(requestsOf(dir, 'create_event')).toEqual(['plan a picnic on Sunday']);
    expect(report.failed).toEqual([
      {
        group: 'calendar',
        tool: 'get_agenda',
        error: 'the answer holds no request: no item is a non-empty string',
      },
    ]);
    expect(report.skipped.invalid).toBe(3);
  });

  it('counts a request cut to the length limit once, when it is added', async () => {
    const dir = project();
    // too long, twice: one shortened request is added and the repeat is dropped
    answers = {
      create_event: JSON.stringify(Array(2).fill(`plan ${'a long offsite '.repeat(60)}`)),
    };
    const report = await generateExampleRequests({
      baseURL,
      model: 'm',
      cwd: dir,
      tools: ['create_event'],
    });
    expect(requestsOf(dir, 'create_event')).toEqual([
      expect.stringMatching(/^plan a long offsite .*…$/),
    ]);
    expect(report.truncated).toBe(1);
    expect(report.skipped.duplicate).toBe(1);
  });

  it('refuses an answer larger than a megabyte', async () => {
    const dir = project();
    answers = {
      create_event: JSON.stringify(Array.from({ length: 60_000 }, (_, i) => `request number ${i}`)),
    };
    const report = await generateExampleRequests({
      baseURL,
      model: 'm',
      cwd: dir,
      tools: ['create_event'],
    });
    expect(report.failed).toEqual([
      {
        group: 'calendar',
        tool: 'create_event',
        error: `POST ${baseURL}/chat/completions (model m) failed: the response is larger than 1000000 bytes`,
      },
    ]);
  });

  it('stops sending requests when the endpoint refuses, and never shows the key', async () => {
    const dir = project();
    const before = readFileSync(join(dir, 'schemas/calendar_tools.json'), 'utf8');
    answers = {
      create_event: { status: 401, body: '{"error": {"message": "invalid key sk-secret"}}' },
      get_agenda: '["show me my day"]',
    };
    const report = await generateExampleRequests({
      baseURL,
      model: 'm',
      apiKey: 'sk-secret',
      cwd: dir,
      concurrency: 1,
    });
    expect(received).toHaveLength(1);
    expect(report.stopped).toBe(
      `the endpoint refused a request (POST ${baseURL}/chat/completions (model m) failed: HTTP 401 Unauthorized: invalid key <apiKey>); check the URL, the model and the API key`,
    );
    expect(readFileSync(join(dir, 'schemas/calendar_tools.json'), 'utf8')).toBe(before);
  });

  it('stops after its first three requests fail, without an answer', async () => {
    const names = ['one', 'two', 'three', 'four', 'five'];
    const dir = createTempDir({
      'schemas/misc_tools.json': makeGroup('misc', {
        tools: names.map((name) => makeTool({ name, description: `Do ${name}.` })),
      }),
    });
    answers = Object.fromEntries(names.map((name) => [name, { status: 503, body: 'busy' }]));
    const report = await generateExampleRequests({ baseURL, model: 'm', cwd: dir, concurrency: 1 });
    expect(received.map((entry) => entry.tool)).toEqual(['one', 'two', 'three']);
    expect(report.stopped).toBe(
      `the first 3 requests failed (the last: POST ${baseURL}/chat/completions (model m) failed: HTTP 503 Service Unavailable: busy)`,
    );
  });

  it('writes nothing on a dry run, and asks only about the tools named', async () => {
    const dir = project();
    const before = readFileSync(join(dir, 'schemas/calendar_tools.json'), 'utf8');
    answers = { get_agenda: '["show me my day"]' };
    const report = await generateExampleRequests({
      baseURL,
      model: 'm',
      cwd: dir,
      tools: ['get_agenda', 'send_mail'],
      dryRun: true,
    });
    expect(received.map((entry) => entry.tool)).toEqual(['get_agenda']);
    expect(report.unknown_tools).toEqual(['send_mail']);
    expect(report.groups[0]).toMatchObject({ changed: true, written: false, new_version: '1.2.1' });
    expect(readFileSync(join(dir, 'schemas/calendar_tools.json'), 'utf8')).toBe(before);
  });

  it('refuses bad options before asking anything', async () => {
    const dir = project();
    const generate = (options: object) =>
      generateExampleRequests({ cwd: dir, ...options } as never);
    await expect(generate({ baseURL, model: 'm', dryrun: true })).rejects.toMatchObject({
      code: 'EXAMPLES_INVALID_OPTIONS',
      message: expect.stringContaining(
        'generateExampleRequests: unknown option "dryrun"; did you mean "dryRun"?',
      ),
    });
    await expect(generate({ baseURL: 'localhost:11434', model: 'm' })).rejects.toThrow(
      'generateExampleRequests: "baseURL" must use http or https, got localhost:',
    );
    await expect(generate({ baseURL, model: 'm', perTool: 0 })).rejects.toThrow(
      'generateExampleRequests: "perTool" must be an integer from 1 to 50, got 0',
    );
    await expect(generate({ baseURL })).rejects.toThrow(
      'generateExampleRequests: option "model" is required: the chat model, such as "llama3.1"',
    );
    await expect(generate({ baseURL, model: 'm', apiKey: 7 })).rejects.toThrow(
      'generateExampleRequests: option "apiKey" must be a string, got number',
    );
    expect(received).toEqual([]);
  });
});

describe('toolcap examples', () => {
  it('prints what it added, sends the key from the environment, exits 1 when a tool failed', async () => {
    const dir = project();
    answers = {
      create_event: '["book a dentist visit Tuesday 9am"]',
      get_agenda: { status: 500, body: 'oops' },
    };
    const result = await runCli(
      ['examples', '--chat-url', baseURL, '--model', 'm', '--per-tool', '2', '--concurrency', '1'],
      { cwd: dir, env: { TOOLCAP_CHAT_API_KEY: 'sk-env' } },
    );
    expect(received[0]?.authorization).toBe('Bearer sk-env');
    expect(result.stdout).toBe(
      [
        `Asked m at ${baseURL}/chat/completions about 2 tool(s) with fewer than 2 example requests (1 already had enough)`,
        '',
        `calendar 1.2.0 -> 1.2.1  ${join('schemas', 'calendar_tools.json')}  (written)`,
        'TOOL          ADDED  TOTAL',
        'create_event  1      1',
        '  create_event + book a dentist visit Tuesday 9am',
        '',
        'Not added: 0 duplicate(s), 0 near-duplicate(s), 0 beyond what the tool needed, 0 empty or not a string',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toBe(
      `No requests for 1 tool(s):\n  calendar/get_agenda: POST ${baseURL}/chat/completions (model m) failed: HTTP 500 Internal Server Error: oops\n`,
    );
    expect(result.code).toBe(1);
  });

  it('says when a tool named with --tool is only in a lower version of its group', async () => {
    const dir = project();
    const old = makeGroup('calendar', {
      version: '1.1.0',
      description: 'Manage the team calendar.',
      tools: [makeTool({ name: 'move_event', description: 'Move an event.' })],
    });
    const oldDir = join(dir, 'schemas/v1');
    mkdirSync(oldDir);
    writeFileSync(join(oldDir, 'calendar_tools.json'), json(old));
    const result = await runCli(
      [
        'examples',
        '--chat-url',
        baseURL,
        '--model',
        'm',
        '--tool',
        'move_event',
        '--tool',
        'send_mail',
      ],
      { cwd: dir },
    );
    expect(received).toEqual([]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        'No group file defines "send_mail"',
        `Not in the loaded version: "move_event" is only in calendar@1.1.0 (${join('schemas', 'v1', 'calendar_tools.json')}), a lower version than the one loaded; requests are written to the loaded version, so add the tool there first`,
        '',
      ].join('\n'),
    );
    const report = await generateExampleRequests({
      baseURL,
      model: 'm',
      cwd: dir,
      tools: ['move_event'],
      dryRun: true,
    });
    expect(report.unknown_tools).toEqual(['move_event']);
    expect(report.older_version_tools).toEqual([
      {
        tool: 'move_event',
        group: 'calendar',
        version: '1.1.0',
        file: join('schemas', 'v1', 'calendar_tools.json'),
      },
    ]);
  });

  it('names --timeout when an answer is too slow', async () => {
    const dir = project();
    const slow = createServer(() => {
      // never answers: the request's time limit ends it
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/v1`;
      const result = await runCli(
        [
          'examples',
          '--chat-url',
          url,
          '--model',
          'm',
          '--tool',
          'create_event',
          '--timeout',
          '50',
        ],
        { cwd: dir },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `calendar/create_event: POST ${url}/chat/completions (model m) failed: no response within 50 ms (--timeout)`,
      );
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });

  it('refuses a missing model or a URL that is not http', async () => {
    const dir = project();
    const missing = await runCli(['examples', '--chat-url', baseURL], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      '--model NAME is required: the chat endpoint and model that write the requests, e.g. --chat-url http://localhost:11434/v1 --model llama3.1',
    );
    const busy = await runCli(
      ['examples', '--chat-url', baseURL, '--model', 'm', '--concurrency', '65'],
      { cwd: dir },
    );
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain('--concurrency must be at most 64, got 65');
    const key = await runCli(['examples', '--chat-url', 'http://me:pw@host/v1', '--model', 'm'], {
      cwd: dir,
    });
    expect(key.code).toBe(2);
    expect(key.stderr).toContain(
      '--chat-url must not hold a user or password; set TOOLCAP_CHAT_API_KEY instead',
    );
    const url = await runCli(['examples', '--chat-url', 'ftp://host/v1', '--model', 'm'], {
      cwd: dir,
    });
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('--chat-url must use http or https, got ftp:');
    expect(received).toEqual([]);
  });

  it('checks --schemas before it starts any upstream server', async () => {
    const dir = createTempDir({});
    // the server would leave a file behind if it were started
    writeFileSync(
      join(dir, 'servers.json'),
      JSON.stringify({
        mcpServers: {
          alpha: {
            command: process.execPath,
            args: ['-e', "require('fs').writeFileSync('started', '')"],
          },
        },
      }),
    );
    const result = await runCli(
      [
        'examples',
        '--chat-url',
        baseURL,
        '--model',
        'm',
        '--upstream',
        'servers.json',
        '--schemas',
        'tools',
      ],
      { cwd: dir },
    );
    expect(result.stderr).toContain('schemas path tools does not exist; pass the directory');
    expect(result.code).toBe(1);
    expect(existsSync(join(dir, 'started'))).toBe(false);
    expect(received).toEqual([]);
  });

  it('writes requests for upstream MCP tools into their overlay, from the live tools/list', async () => {
    const dir = createTempDir({
      'schemas/alpha_tools.json': json({
        ...makeGroup('alpha', {
          description: 'Arithmetic and timing tools.',
          selection: { strategy: 'keyword', keywords: ['arithmetic'] },
          tools: [],
        }),
        'x-upstream': { hidden: ['crash'], tools: { add: { title: 'Adder' } } },
      }),
    });
    writeFileSync(
      join(dir, 'servers.json'),
      JSON.stringify({
        mcpServers: {
          alpha: { command: process.execPath, args: [ALPHA_SERVER] },
          beta: { command: process.execPath, args: [BETA_SERVER] },
        },
      }),
    );
    answers = {
      sleep: '["hold off for two seconds", "pause a moment before the retry"]',
      add: '["what is 17 plus 25"]',
    };
    // the fixture servers run as processes started and stopped by snapshotUpstream
    const result = await runCli(
      [
        'examples',
        '--chat-url',
        baseURL,
        '--model',
        'm',
        '--upstream',
        'servers.json',
        '--tool',
        'sleep',
        '--tool',
        'add',
        '--concurrency',
        '1',
      ],
      { cwd: dir },
    );
    expect(received.map((entry) => entry.tool)).toEqual(['add', 'sleep']);
    const prompt = received[1]!.body.messages[1]!.content;
    expect(prompt).toContain(
      'Description: Wait for a number of milliseconds, then report how long it waited.',
    );
    expect(prompt).toContain('Parameters: ms');
    expect(prompt).toContain('Group "alpha": Arithmetic and timing tools.');
    expect(prompt).toContain('- echo: ');
    expect(prompt).not.toContain('- crash: ');
    const overlay = JSON.parse(readFileSync(join(dir, 'schemas/alpha_tools.json'), 'utf8'));
    expect(overlay.version).toBe('1.0.1');
    expect(overlay['x-upstream'].tools).toEqual({
      add: { title: 'Adder', example_requests: ['what is 17 plus 25'] },
      sleep: { example_requests: ['hold off for two seconds', 'pause a moment before the retry'] },
    });
    // beta has no overlay here: named, and the run exits 1
    expect(result.stderr).toContain('No valid overlay file for the upstream groups beta: ');
    expect(result.code).toBe(1);
    expect((await runCli(['validate', '--schemas', 'schemas'], { cwd: dir })).code).toBe(0);
  });

  it('finds upstream tools by the names the gateway shows, and says when overlays need --upstream', async () => {
    const overlay = (group: string, tools: Record<string, unknown>) =>
      json({
        ...makeGroup(group, { description: `The ${group} server.`, tools: [] }),
        'x-upstream': { tools },
      });
    const five = ['one plus one', 'two plus two', 'sum these', 'add 3 and 4', 'total of 8 and 9'];
    const dir = createTempDir({
      'schemas/alpha_tools.json': overlay('alpha', { add: { example_requests: five } }),
      'schemas/beta_tools.json': overlay('beta', {
        search_docs: { example_requests: ['find it in the docs'] },
      }),
    });
    writeFileSync(
      join(dir, 'servers.json'),
      JSON.stringify({
        mcpServers: {
          alpha: { command: process.execPath, args: [ALPHA_SERVER] },
          beta: { command: process.execPath, args: [BETA_SERVER] },
        },
      }),
    );
    answers = {
      // prose with brackets around the list
      echo: 'Sure [as requested], the list:\n["repeat after me: hello"]\nNote: edit these [if needed].',
      'search-docs': '["how do I configure the proxy?"]',
    };
    const result = await runCli(
      [
        'examples',
        '--chat-url',
        baseURL,
        '--model',
        'm',
        '--upstream',
        'servers.json',
        '--json',
        '--concurrency',
        '1',
        // the gateway's name of beta's echo, the converted name of search-docs, and a complete tool
        '--tool',
        'beta_echo',
        '--tool',
        'search_docs',
        '--tool',
        'add',
      ],
      { cwd: dir },
    );
    expect(received.map((entry) => entry.tool)).toEqual(['echo', 'search-docs']);
    const report = result.json() as Record<string, unknown>;
    expect(report).toMatchObject({
      requested: 2,
      complete: 1,
      unknown_tools: [],
      upstream_errors: [],
      failed: [],
    });
    expect(result.code).toBe(0);
    const beta = JSON.parse(readFileSync(join(dir, 'schemas/beta_tools.json'), 'utf8'));
    expect(beta['x-upstream'].tools).toEqual({
      search_docs: { example_requests: ['find it in the docs', 'how do I configure the proxy?'] },
      echo: { example_requests: ['repeat after me: hello'] },
    });
    const without = await runCli(['examples', '--chat-url', baseURL, '--model', 'm'], { cwd: dir });
    expect(without.stderr).toBe(
      "The overlay groups alpha, beta hold tools of upstream MCP servers: add --upstream FILE (the servers' configuration) to write requests for them\n",
    );
  });

  it("reads raw line breaks inside the answer's strings as spaces, and removes invisible characters", async () => {
    const dir = project();
    answers = {
      create_event:
        '["what time is it\nin Tokyo", "is it morning in Lagos now", "\u202eplan a picnic\u200f on\u0085Sunday"]',
    };
    const report = await generateExampleRequests({
      baseURL,
      model: 'm',
      cwd: dir,
      tools: ['create_event'],
    });
    expect(report.failed).toEqual([]);
    expect(requestsOf(dir, 'create_event')).toEqual([
      'what time is it in Tokyo',
      'is it morning in Lagos now',
      'plan a picnic on Sunday',
    ]);
  });

  it('says why an answer is not a JSON array, showing the answer as it came', async () => {
    const dir = project();
    answers = {
      create_event: 'Here:\n["book a room"\n"call Sam"]',
      get_agenda: 'Here you go: ["show my day", "what is next"',
    };
    const report = await generateExampleRequests({ baseURL, model: 'm', cwd: dir, concurrency: 1 });
    const prefix = `POST ${baseURL}/chat/completions (model m) failed: the answer is not a JSON array of strings`;
    expect(report.failed[0]?.error).toMatch(
      /\(JSON\.parse: Expected ',' or ']' after array element in JSON at position 15\b.*, counting from the "\[" at character 7\): "Here:\\n\[\\"book a room\\"\\n\\"call Sam\\"\]"$/,
    );
    expect(report.failed[0]?.error.startsWith(prefix)).toBe(true);
    expect(report.failed[1]?.error).toBe(
      `${prefix} (the "[" at character 14 is never closed): "Here you go: [\\"show my day\\", \\"what is next\\""`,
    );
  });

  it('bumps a pre-release to the next pre-release', async () => {
    const dir = createTempDir({
      'schemas/calendar_tools.json': makeGroup('calendar', {
        version: '2.0.0-rc.1',
        tools: [makeTool({ name: 'create_event' })],
      }),
    });
    answers = { create_event: '["book a dentist visit"]' };
    const report = await generateExampleRequests({ baseURL, model: 'm', cwd: dir });
    expect(report.groups[0]).toMatchObject({
      old_version: '2.0.0-rc.1',
      new_version: '2.0.0-rc.2',
      written: true,
    });
    expect(JSON.parse(readFileSync(join(dir, 'schemas/calendar_tools.json'), 'utf8')).version).toBe(
      '2.0.0-rc.2',
    );
  });

  it("finds --tool by a tool's original name, and suggests a close name for an unknown one", async () => {
    const dir = createTempDir({
      'schemas/crypto_tools.json': makeGroup('crypto', {
        tools: [
          makeTool({ name: 'get_crypto_price', 'x-original-name': 'get-crypto-price' }),
          makeTool({ name: 'list_coins', description: 'List coins.' }),
        ],
      }),
    });
    answers = { get_crypto_price: '["what is bitcoin worth right now"]' };
    const found = await generateExampleRequests({
      baseURL,
      model: 'm',
      cwd: dir,
      tools: ['get-crypto-price'],
    });
    expect(received.map((entry) => entry.tool)).toEqual(['get_crypto_price']);
    expect(found.unknown_tools).toEqual([]);
    expect(found.groups[0]?.tools).toEqual([
      { tool: 'get_crypto_price', added: ['what is bitcoin worth right now'], total: 1 },
    ]);

    const result = await runCli(
      ['examples', '--chat-url', baseURL, '--model', 'm', '--tool', 'get_crypto_prise'],
      { cwd: dir },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'No group file defines "get_crypto_prise" (did you mean "get_crypto_price"?)\n',
    );
    const report = await generateExampleRequests({
      baseURL,
      model: 'm',
      cwd: dir,
      tools: ['get_crypto_prise', 'zzz'],
    });
    expect(report.unknown_tools).toEqual(['get_crypto_prise', 'zzz']);
    expect(report.similar_tools).toEqual([
      { tool: 'get_crypto_prise', similar: ['get_crypto_price'] },
    ]);
  });

  it('names --timeout in the Stopped line too', async () => {
    const dir = project();
    const slow = createServer(() => {
      // never answers: the request's time limit ends it
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/v1`;
      const result = await runCli(
        ['examples', '--chat-url', url, '--model', 'm', '--per-tool', '6', '--timeout', '50'],
        { cwd: dir },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `\nStopped: the first 3 requests failed (the last: POST ${url}/chat/completions (model m) failed: no response within 50 ms (--timeout))\n`,
      );
      expect(result.stderr).not.toContain('timeoutMs');
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });

  it('leaves a file alone that another writer changed so that the edit no longer applies', async () => {
    const dir = project();
    const file = join(dir, 'schemas/calendar_tools.json');
    // while the model thinks, someone removes the tool from the file
    const editing = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const group = JSON.parse(readFileSync(file, 'utf8'));
        group.tools = group.tools.filter((tool: { name: string }) => tool.name !== 'create_event');
        writeFileSync(file, JSON.stringify(group, null, 2));
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ choices: [{ message: { content: '["book a dentist visit"]' } }] }),
        );
      });
    });
    await new Promise<void>((resolve) => editing.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(editing.address() as AddressInfo).port}/v1`;
      const report = await generateExampleRequests({
        baseURL: url,
        model: 'm',
        cwd: dir,
        tools: ['create_event'],
      });
      expect(report.groups[0]).toMatchObject({
        changed: true,
        written: false,
        error:
          'the file changed during the run and no longer defines the tool "create_event"; it was left unchanged. Run again',
      });
      expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe('1.2.0');
    } finally {
      editing.closeAllConnections();
      await new Promise<void>((resolve) => editing.close(() => resolve()));
    }
  });
});
