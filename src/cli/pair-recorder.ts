import { appendFile, open } from 'node:fs/promises';
import type { FoundToolCall } from '../mcp/gateway/gateway-session.js';
import { errorMessage } from '../util/error-message.js';
import { CliUsageError } from './cli-usage-error.js';
import type { CliIo } from './io.js';

/** Appends `find_tools` → call pairs to a JSON Lines file (`toolcap mcp --record-pairs`). */
export interface PairRecorder {
  record(call: FoundToolCall): void;
  /** Waits for the lines recorded so far to be written. */
  close(): Promise<void>;
}

/**
 * Checks that `path` can be appended to (creating it), or fails with a usage error naming
 * `file`. Each recorded call becomes one line `{"message", "tool", "group"}`, plus `"server"`
 * and `"server_tool"` for an upstream tool: the `pairs` format of `toolcap learn`. Lines are
 * appended in order, each by opening the path again, so a log rotated away (renamed) is
 * followed by a new file; a write that fails is reported once on stderr and recording stops,
 * the gateway goes on.
 */
export async function openPairRecorder(
  file: string,
  path: string,
  io: CliIo,
): Promise<PairRecorder> {
  try {
    await (await open(path, 'a')).close();
  } catch (error) {
    throw new CliUsageError(
      `--record-pairs ${file}: cannot open the file for appending (${errorMessage(error)}); check that its directory exists and is writable`,
      'mcp',
    );
  }
  let pending: Promise<void> = Promise.resolve();
  let failed = false;
  return {
    record(call) {
      if (failed) return;
      const line = JSON.stringify({
        message: call.query,
        tool: call.tool,
        group: call.group,
        ...(call.upstream === undefined
          ? {}
          : { server: call.upstream.server, server_tool: call.upstream.tool }),
      });
      pending = pending.then(async () => {
        if (failed) return;
        try {
          await appendFile(path, `${line}\n`);
        } catch (error) {
          failed = true;
          io.stderr(
            `toolcap mcp: cannot record to ${file} (${errorMessage(error)}); recording stopped, serving goes on\n`,
          );
        }
      });
    },
    async close() {
      await pending;
    },
  };
}
