import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ToolcapError } from '../../errors/toolcap-error.js';
import { type JsonDocument, parseJsonDocument } from '../../load/parse-json-document.js';
import { toGroupName } from '../../migrate/to-group-name.js';
import { errorMessage } from '../../util/error-message.js';
import { suggestSimilar } from '../../util/suggest-similar.js';

interface UpstreamServerBase {
  /** The server's key in `mcpServers`, as written. */
  name: string;
  /** The group its tools form: the key as a snake_case group name, unique in the file. */
  group: string;
}

/** An upstream started as a child process and spoken to over stdio. */
export interface UpstreamStdioServer extends UpstreamServerBase {
  transport: 'stdio';
  command: string;
  args: readonly string[];
  /** Added to the SDK's safe default environment (PATH, HOME, ...), not to the whole host's. */
  env: Readonly<Record<string, string>>;
  /** Absolute working directory, when given. */
  cwd?: string;
}

/** An upstream reached over Streamable HTTP. */
export interface UpstreamHttpServer extends UpstreamServerBase {
  transport: 'http';
  url: string;
  headers: Readonly<Record<string, string>>;
}

/** One server of an MCP client configuration file. */
export type UpstreamServer = UpstreamStdioServer | UpstreamHttpServer;

/** The servers of a configuration file and what was left out. */
export interface UpstreamConfig {
  servers: UpstreamServer[];
  /** Notes for the operator: disabled servers, renamed groups. */
  notes: string[];
}

/** Where a configuration comes from and what `${VAR}` references expand to. */
export interface UpstreamConfigOptions {
  /** The file name used in messages; relative `cwd` entries resolve against its directory. */
  file: string;
  /** Variables for `${VAR}` and `${VAR:-default}`. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The fields of a server entry this reader uses. Other fields are ignored (clients add their
 * own: `alwaysAllow`, `timeout`, `envFile`, ...), unless one is a likely typo of these.
 */
const SERVER_FIELDS = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'type', 'disabled'];

const TRANSPORT_TYPES = new Map<string, 'stdio' | 'http'>([
  ['stdio', 'stdio'],
  ['http', 'http'],
  ['streamable-http', 'http'],
  ['streamableHttp', 'http'],
]);

/**
 * Reads an MCP client configuration file (`{ "mcpServers": { name: { command, args, env, cwd }
 * | { url, headers } } }`, the format Claude Desktop, Cursor and Claude Code use; VS Code's
 * `"servers"` key is accepted too), and checks that each `cwd` is an existing directory. Throws
 * a ToolcapError (`UPSTREAM_CONFIG_INVALID`) naming the file, the field and the fix.
 */
export async function readUpstreamConfig(
  path: string,
  options: UpstreamConfigOptions,
): Promise<UpstreamConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ToolcapError(
      'UPSTREAM_CONFIG_INVALID',
      `cannot read the upstream configuration ${options.file}: ${errorMessage(error)}`,
    );
  }
  return readConfigText(text, options, dirname(path), true);
}

/**
 * Parses the text of an upstream configuration file; see `readUpstreamConfig`. It never touches
 * the file system: a `cwd` is resolved against `baseDir` but not checked.
 */
export function parseUpstreamConfig(
  text: string,
  options: UpstreamConfigOptions,
  baseDir: string = process.cwd(),
): UpstreamConfig {
  return readConfigText(text, options, baseDir, false);
}

function readConfigText(
  text: string,
  options: UpstreamConfigOptions,
  baseDir: string,
  checkDirectories: boolean,
): UpstreamConfig {
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) {
    throw parsed.reason === 'empty'
      ? configError(
          options.file,
          'is empty; it should name the MCP servers to run behind the gateway, as MCP clients write them: {"mcpServers": {"name": {"command": "...", "args": ["..."]}}} (or {"url": "..."} for an HTTP server)',
        )
      : configError(
          `${options.file}:${parsed.position.line}:${parsed.position.column}`,
          `invalid JSON: ${parsed.message}`,
        );
  }
  const reader = new ConfigReader(parsed.document, options, baseDir, checkDirectories);
  return reader.read();
}

class ConfigReader {
  readonly #document: JsonDocument;
  readonly #file: string;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #baseDir: string;
  readonly #checkDirectories: boolean;

  constructor(
    document: JsonDocument,
    options: UpstreamConfigOptions,
    baseDir: string,
    checkDirectories: boolean,
  ) {
    this.#document = document;
    this.#file = options.file;
    this.#env = options.env ?? process.env;
    this.#baseDir = baseDir;
    this.#checkDirectories = checkDirectories;
  }

  read(): UpstreamConfig {
    const root = this.#document.value;
    if (!isObject(root)) this.#fail('', 'must be a JSON object with an "mcpServers" object');
    const key =
      Object.hasOwn(root, 'servers') && !Object.hasOwn(root, 'mcpServers')
        ? 'servers'
        : 'mcpServers';
    if (Object.hasOwn(root, 'mcpServers') && Object.hasOwn(root, 'servers')) {
      this.#fail('/servers', 'is given next to "mcpServers"; keep one of them');
    }
    const servers = root[key];
    if (!isObject(servers)) {
      this.#fail(
        `/${key}`,
        Object.hasOwn(root, key)
          ? 'must be an object of servers by name'
          : 'is missing: write {"mcpServers": {"name": {"command": "..."}}}',
      );
    }
    const notes: string[] = [];
    const result: UpstreamServer[] = [];
    const groups = new Set<string>();
    for (const [name, entry] of Object.entries(servers)) {
      const pointer = `/${key}/${escapePointer(name)}`;
      if (!isObject(entry))
        this.#fail(pointer, 'must be an object ({"command": ...} or {"url": ...})');
      const disabled = entry.disabled;
      if (disabled !== undefined && typeof disabled !== 'boolean') {
        this.#fail(
          `${pointer}/disabled`,
          `must be true or false, got ${JSON.stringify(disabled) ?? typeName(disabled)}`,
        );
      }
      if (disabled === true) {
        notes.push(`server "${name}" is disabled in ${this.#file}; skipped`);
        continue;
      }
      this.#checkFields(entry, pointer);
      const group = uniqueGroup(toGroupName(name), groups);
      if (group !== toGroupName(name)) {
        notes.push(
          `server "${name}" forms group "${group}" ("${toGroupName(name)}" is taken by another server)`,
        );
      }
      result.push(this.#readServer(name, group, entry, pointer));
    }
    if (result.length === 0) {
      this.#fail(`/${key}`, 'names no enabled server; add one, e.g. {"name": {"command": "..."}}');
    }
    return { servers: result, notes };
  }

  #readServer(
    name: string,
    group: string,
    entry: Record<string, unknown>,
    pointer: string,
  ): UpstreamServer {
    const type = entry.type;
    if (type !== undefined) {
      if (type === 'sse') {
        this.#fail(
          `${pointer}/type`,
          'is "sse", the legacy transport, which is not supported; give the server\'s Streamable HTTP endpoint ("type": "http")',
        );
      }
      if (typeof type !== 'string' || !TRANSPORT_TYPES.has(type)) {
        this.#fail(`${pointer}/type`, `must be "stdio" or "http", got ${JSON.stringify(type)}`);
      }
    }
    const hasCommand = entry.command !== undefined;
    const hasUrl = entry.url !== undefined;
    if (hasCommand && hasUrl) {
      this.#fail(pointer, 'has both "command" and "url"; keep "command" (stdio) or "url" (HTTP)');
    }
    const transport = type === undefined ? (hasUrl ? 'http' : 'stdio') : TRANSPORT_TYPES.get(type);
    if (transport === 'http') {
      const url = this.#string(entry.url, `${pointer}/url`, "the server's Streamable HTTP URL");
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        this.#fail(`${pointer}/url`, `is not a URL: ${JSON.stringify(url)}`);
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        this.#fail(`${pointer}/url`, `must be an http:// or https:// URL, got ${parsed.protocol}`);
      }
      return {
        transport: 'http',
        name,
        group,
        url: parsed.href,
        headers: this.#stringRecord(entry.headers, `${pointer}/headers`),
      };
    }
    const command = this.#string(entry.command, `${pointer}/command`, 'the program to start');
    const args = entry.args ?? [];
    if (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string')) {
      this.#fail(`${pointer}/args`, 'must be a list of strings');
    }
    const cwd =
      entry.cwd === undefined
        ? undefined
        : resolve(this.#baseDir, this.#string(entry.cwd, `${pointer}/cwd`, 'a directory'));
    if (cwd !== undefined && this.#checkDirectories) this.#checkDirectory(cwd, `${pointer}/cwd`);
    return {
      transport: 'stdio',
      name,
      group,
      command,
      args: (args as string[]).map((arg, index) => this.#expand(arg, `${pointer}/args/${index}`)),
      env: this.#stringRecord(entry.env, `${pointer}/env`),
      ...(cwd === undefined ? {} : { cwd }),
    };
  }

  /** A field no reader uses but that is one edit or so from a known one: a typo, refused. */
  #checkFields(entry: Record<string, unknown>, pointer: string): void {
    for (const key of Object.keys(entry)) {
      if (SERVER_FIELDS.includes(key)) continue;
      const [suggestion] = suggestSimilar(key, SERVER_FIELDS, 1);
      if (suggestion === undefined) continue;
      this.#fail(
        `${pointer}/${escapePointer(key)}`,
        `is not a field of a server; did you mean "${suggestion}"? (fields: ${SERVER_FIELDS.join(', ')})`,
      );
    }
  }

  /** A `cwd` that is no directory would fail every start as a missing program (spawn ENOENT). */
  #checkDirectory(directory: string, pointer: string): void {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(directory).isDirectory();
    } catch {
      this.#fail(
        pointer,
        `names the directory ${directory}, which does not exist; create it or fix the path (a relative cwd is resolved against the directory of ${this.#file})`,
      );
    }
    if (!isDirectory) this.#fail(pointer, `names ${directory}, which is not a directory`);
  }

  #string(value: unknown, pointer: string, what: string): string {
    if (typeof value !== 'string' || value.trim() === '') {
      this.#fail(
        pointer,
        value === undefined ? `is missing (${what})` : `must be a non-empty string (${what})`,
      );
    }
    return this.#expand(value, pointer);
  }

  #stringRecord(value: unknown, pointer: string): Record<string, string> {
    if (value === undefined) return {};
    if (!isObject(value)) this.#fail(pointer, 'must be an object of strings');
    const result: Record<string, string> = {};
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== 'string') {
        this.#fail(`${pointer}/${escapePointer(key)}`, `must be a string, got ${typeName(item)}`);
      }
      Object.defineProperty(result, key, {
        value: this.#expand(item, `${pointer}/${escapePointer(key)}`),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return result;
  }

  /** `${VAR}` and `${VAR:-default}`, as Claude Code expands them; `$$` is not special. */
  #expand(value: string, pointer: string): string {
    return value.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
      (_match, variable: string, fallback: string | undefined) => {
        const found = Object.hasOwn(this.#env, variable) ? this.#env[variable] : undefined;
        if (found !== undefined && found !== '') return found;
        if (fallback !== undefined) return fallback;
        this.#fail(
          pointer,
          `uses \${${variable}}, which is not set; set the environment variable or write \${${variable}:-default}`,
        );
      },
    );
  }

  #fail(pointer: string, problem: string): never {
    const position = this.#document.locate(pointer);
    const where = position === undefined ? '' : `:${position.line}:${position.column}`;
    const field = pointer === '' ? 'the file' : pointerToPath(pointer);
    throw configError(`${this.#file}${where}`, `${field} ${problem}`);
  }
}

function configError(where: string, problem: string): ToolcapError {
  return new ToolcapError('UPSTREAM_CONFIG_INVALID', `${where}: ${problem}`);
}

function uniqueGroup(group: string, taken: Set<string>): string {
  let candidate = group;
  for (let counter = 2; taken.has(candidate); counter++) {
    const suffix = `_${counter}`;
    candidate = `${group.slice(0, 64 - suffix.length)}${suffix}`;
  }
  taken.add(candidate);
  return candidate;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `/mcpServers/github/args/0` → `mcpServers.github.args[0]`, for messages. */
function pointerToPath(pointer: string): string {
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part, index) =>
      /^\d+$/.test(part)
        ? `[${part}]`
        : /^[A-Za-z_][\w-]*$/.test(part)
          ? `${index === 0 ? '' : '.'}${part}`
          : `[${JSON.stringify(part)}]`,
    )
    .join('');
}
