import { ToolcapError } from '../errors/toolcap-error.js';

/** A mistake in the command line (exit code 2). */
export class CliUsageError extends ToolcapError {
  /** The command whose usage to show, if any. */
  readonly command: string | undefined;

  constructor(message: string, command?: string) {
    super('CLI_USAGE', message);
    this.name = 'CliUsageError';
    this.command = command;
  }
}
