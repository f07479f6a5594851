import valid from 'semver/functions/valid.js';
import { ToolcapError } from '../../errors/toolcap-error.js';
import { errorMessage } from '../../util/error-message.js';
import { FALLBACK_UPSTREAM_VERSION } from './build-upstream-group.js';
import { fetchUpstreamListing } from './list-upstream-tools.js';
import { readUpstreamConfig } from './upstream-config.js';

/** One server's tools as they are now, ready for `importToolList({ tools }, { from: "mcp" })`. */
export interface UpstreamSnapshot {
  /** The raw `tools/list` entries, every page. */
  tools: readonly unknown[];
  /** The group the gateway would give the server. */
  group: string;
  /** The server's version when it is semver, else `0.0.0` (as the gateway versions it). */
  version: string;
  server?: { name: string; version: string; title?: string };
}

/**
 * Connects to the server `name` of an MCP client configuration file, reads its whole
 * `tools/list` and disconnects (a stdio server's process is stopped). Throws a ToolcapError:
 * `UPSTREAM_CONFIG_INVALID` for the file, `UPSTREAM_UNKNOWN_SERVER` (with the names it has),
 * `UPSTREAM_UNREACHABLE` when the server cannot be started, reached or listed,
 * `UPSTREAM_NO_TOOLS` when it declares no `tools` capability.
 */
export async function snapshotUpstream(
  path: string,
  options: {
    /** The file as named in messages. */
    file: string;
    name: string;
    env?: Readonly<Record<string, string | undefined>>;
    timeoutMs?: number;
  },
): Promise<UpstreamSnapshot> {
  const config = await readUpstreamConfig(path, {
    file: options.file,
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  const server = config.servers.find((candidate) => candidate.name === options.name);
  if (server === undefined) {
    throw new ToolcapError(
      'UPSTREAM_UNKNOWN_SERVER',
      `${options.file} has no enabled server ${JSON.stringify(options.name)}; its servers: ${config.servers.map((candidate) => candidate.name).join(', ')}`,
    );
  }
  let listing: Awaited<ReturnType<typeof fetchUpstreamListing>>;
  try {
    listing = await fetchUpstreamListing(server, {
      timeoutMs: options.timeoutMs ?? 30_000,
      clientInfo: { name: 'toolcap-import', version: '0.0.0' },
    });
  } catch (error) {
    throw new ToolcapError(
      'UPSTREAM_UNREACHABLE',
      `could not list the tools of server "${server.name}" (${server.transport === 'stdio' ? server.command : server.url}): ${errorMessage(error)}`,
    );
  }
  if (listing.offersTools === false) {
    throw new ToolcapError(
      'UPSTREAM_NO_TOOLS',
      `the server "${server.name}" of ${options.file} offers no tools (its initialize result has no "tools" capability: it serves resources or prompts only); there is nothing to import`,
    );
  }
  const reported = listing.server?.version;
  return {
    tools: listing.tools,
    group: server.group,
    version:
      reported !== undefined && valid(reported) !== null
        ? valid(reported)!
        : FALLBACK_UPSTREAM_VERSION,
    ...(listing.server === undefined ? {} : { server: listing.server }),
  };
}
