// node:fs/promises, not node:fs: importing node:fs as ESM loads its stream classes (~2 ms)
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolcapError } from '../errors/toolcap-error.js';
import { suggestSimilar } from '../util/suggest-similar.js';
import { CliUsageError } from './cli-usage-error.js';
import type { CliIo } from './io.js';
import { describeArgumentCount } from './parse-cli-args.js';

/** A command module: `run` plus its help texts. */
export interface CommandModule {
  summary: string;
  usage: string;
  /** The subcommands its usage covers (`migrate status`), so `toolcap help CMD SUB` shows it. */
  subcommands?: readonly string[];
  run(args: readonly string[], io: CliIo): Promise<number>;
}

// commands are imported on demand so start-up only pays for the one that runs
const COMMANDS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  validate: () => import('./commands/validate.js'),
  list: () => import('./commands/list.js'),
  translate: () => import('./commands/translate.js'),
  run: () => import('./commands/run.js'),
  mcp: () => import('./commands/mcp.js'),
  select: () => import('./commands/select.js'),
  search: () => import('./commands/search.js'),
  diff: () => import('./commands/diff.js'),
  migrate: () => import('./commands/migrate.js'),
  import: () => import('./commands/import.js'),
  learn: () => import('./commands/learn.js'),
  examples: () => import('./commands/examples.js'),
};

/**
 * The CLI entry: runs one command and returns the exit code (0 success, 1 failure, 2 usage
 * error). Never calls process.exit; `bin.ts` does.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [commandName, ...args] = argv;
  if (commandName === undefined) {
    io.stderr(await generalHelp());
    return 2;
  }
  if (commandName === 'help' || commandName === '--help' || commandName === '-h') {
    return showHelp(commandName, args, io);
  }
  if (commandName === '--version' || commandName === '-v') {
    if (args.length > 0) {
      return reportUsageError(describeArgumentCount(commandName, '0', 'none', args), undefined, io);
    }
    io.stdout(`${await readPackageVersion()}\n`);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, commandName) ? COMMANDS[commandName] : undefined;
  if (load === undefined) return unknownCommand(commandName, io);
  const command = await load();
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof CliUsageError) {
      // --help: the usage on stdout; a mistake: one line and where the help is
      if (error.message === '') {
        io.stdout(`Usage: ${command.usage}\n`);
        return 0;
      }
      return reportUsageError(error.message, error.command ?? commandName, io);
    }
    if (ToolcapError.isInstance(error)) {
      io.stderr(`toolcap: ${error.message}\n`);
      return 1;
    }
    const detail =
      error instanceof Error ? (io.env.TOOLCAP_DEBUG ? error.stack : error.message) : String(error);
    io.stderr(`toolcap: unexpected error: ${detail}\n`);
    return 1;
  }
}

/**
 * `toolcap help [COMMAND [SUBCOMMAND]]` (also `--help`, `-h`): the command list or one
 * command's usage; a subcommand only where the command declares it.
 */
async function showHelp(asked: string, args: readonly string[], io: CliIo): Promise<number> {
  const [topic, ...extra] = args;
  const load = topic !== undefined && Object.hasOwn(COMMANDS, topic) ? COMMANDS[topic] : undefined;
  const command = load === undefined ? undefined : await load();
  const subcommands = command?.subcommands ?? [];
  if (extra.length === 1 && subcommands.length > 0 && !subcommands.includes(extra[0]!)) {
    const known = subcommands.map((name) => `"${topic} ${name}"`).join(', ');
    return reportUsageError(
      `"toolcap ${asked} ${topic} ${extra[0]}": ${topic} has no subcommand "${extra[0]}"; its subcommands: ${known}`,
      topic,
      io,
    );
  }
  if (extra.length > (subcommands.length > 0 ? 1 : 0)) {
    // point at the help the user most likely wanted
    const known = load === undefined ? undefined : topic;
    const [expected, names] =
      subcommands.length > 0 ? ['0 to 2', 'COMMAND SUBCOMMAND'] : ['0 to 1', 'COMMAND'];
    return reportUsageError(describeArgumentCount(asked, expected, names, args), known, io);
  }
  if (topic === undefined) {
    io.stdout(await generalHelp());
    return 0;
  }
  if (command === undefined) return unknownCommand(topic, io);
  io.stdout(`${command.usage}\n`);
  return 0;
}

// one line and where the help is, so the error does not scroll away above the whole usage
function reportUsageError(message: string, command: string | undefined, io: CliIo): number {
  const help =
    command === undefined
      ? 'Run "toolcap help" for the list.'
      : `Run "toolcap help ${command}" for its options.`;
  io.stderr(`toolcap: ${message}\n${help}\n`);
  return 2;
}

function unknownCommand(name: string, io: CliIo): number {
  const similar = suggestSimilar(name, Object.keys(COMMANDS));
  const hint = similar.length > 0 ? ` Did you mean "toolcap ${similar[0]}"?` : '';
  io.stderr(`toolcap: unknown command "${name}".${hint} Run "toolcap help" for the list.\n`);
  return 2;
}

async function generalHelp(): Promise<string> {
  const lines = ['Usage: toolcap <command> [options]', '', 'Commands:'];
  for (const [name, load] of Object.entries(COMMANDS)) {
    lines.push(`  ${name.padEnd(10)} ${(await load()).summary}`);
  }
  lines.push('', 'Run "toolcap help <command>" for a command\'s options.', '');
  return lines.join('\n');
}

async function readPackageVersion(): Promise<string> {
  // dist/src/cli/main.js and src/cli/main.ts sit at different depths: walk up to the package
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth++) {
    try {
      const manifest = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === 'tool-capabilities') return manifest.version ?? 'unknown';
    } catch {
      // not here; keep walking up
    }
    directory = dirname(directory);
  }
  return 'unknown';
}
