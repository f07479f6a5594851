import { main } from '../../src/cli/main.js';

/** The captured result of one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (throws if it is not JSON). */
  json: () => unknown;
}

/** Runs `toolcap ...argv` in-process with captured output. */
export async function runCli(
  argv: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; isTty?: boolean } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? {},
    isTty: options.isTty ?? false,
  });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) as unknown };
}
