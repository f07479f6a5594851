/** What a CLI command may touch: injectable for tests. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Whether stdout is a terminal (colors are only used there). */
  isTty: boolean;
  /** Standard input, for commands that read it. */
  stdin?: NodeJS.ReadableStream;
}

/** The process's streams, plus whether writing to stdout failed for another reason than EPIPE. */
export interface ProcessIo extends CliIo {
  /** A write error other than a closed pipe (a full disk, ...): the command's output is lost. */
  outputError(): NodeJS.ErrnoException | undefined;
}

/**
 * The process's real streams. A reader that goes away (`toolcap validate | head -1`) closes the
 * pipe: later writes fail with EPIPE, emitted as an 'error' event that would crash the process
 * with a stack trace. The command runs on and exits with its own code; only the output it can no
 * longer deliver is dropped, as `cat` and `grep` do when they are not killed by SIGPIPE (Node
 * ignores SIGPIPE).
 */
export function createProcessIo(): ProcessIo {
  let stdoutClosed = false;
  let stderrClosed = false;
  let failure: NodeJS.ErrnoException | undefined;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    stdoutClosed = true;
    if (error.code !== 'EPIPE') failure ??= error;
  });
  process.stderr.on('error', () => {
    stderrClosed = true;
  });
  return {
    stdout: (text) => {
      if (!stdoutClosed) process.stdout.write(text);
    },
    stderr: (text) => {
      if (!stderrClosed) process.stderr.write(text);
    },
    cwd: process.cwd(),
    env: process.env,
    isTty: process.stdout.isTTY === true,
    stdin: process.stdin,
    outputError: () => failure,
  };
}

/** Whether to color output: a TTY, and neither NO_COLOR nor TERM=dumb (https://no-color.org). */
export function useColor(io: CliIo): boolean {
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== '0') return true;
  if (io.env.TERM === 'dumb') return false;
  return io.isTty;
}

/** ANSI styling that becomes identity when color is off. */
export function createStyle(enabled: boolean) {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\u001B[${open}m${text}\u001B[${close}m` : text;
  return {
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}

/** Writes `value` as pretty JSON plus a newline. */
export function writeJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}
