import { type FileHandle, open } from 'node:fs/promises';
import type { FoundToolCall } from '../mcp/gateway/gateway-session.js';
import { errorMessage } from '../util/error-message.js';
import { CliUsageError } from './cli-usage-error.js';
import type { CliIo } from './io.js';

/** Appends `find_tools` → call pairs to a JSON Lines file (`toolcap mcp --record-pairs`). */
export interface PairRecorder {
  record(call: FoundToolCall): void;
  /** Waits for the lines written so far, then closes the file. */
  close(): Promise<void>;
}

/**
 * Opens `file` (relative to `io.cwd`) for appending, or fails with a usage error naming it. Each
 * recorded call becomes one line `{"message", "tool", "group"}`, plus `"server"` and
 * `"server_tool"` for an upstream tool: the `pairs` format of `toolcap learn`. Lines are written
 * in order; a write that fails is reported once on stderr and recording stops, the gateway goes on.
 */
export async function openPairRecorder(
  file: string,
  path: string,
  io: CliIo,
): Promise<PairRecorder> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'a');
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
          await handle.appendFile(`${line}\n`);
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
      await handle.close().catch(() => {});
    },
  };
}
