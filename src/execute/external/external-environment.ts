/**
 * Variables every external tool gets even with an allow-list: what programs need to start,
 * find other programs and format text (and, on Windows, to run at all). None holds a secret.
 */
export const BASIC_ENVIRONMENT_VARIABLES: readonly string[] = Object.freeze([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TZ',
  'TERM',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SystemRoot',
  'windir',
  'ComSpec',
  'PATHEXT',
  'USERPROFILE',
]);

/** Which variables of the host reach external tools (`executionLimits.externalEnv`). */
export interface ExternalEnvironmentOptions {
  /**
   * Names passed on besides `BASIC_ENVIRONMENT_VARIABLES`; a name ending in `*` is a prefix
   * (`MYTOOL_*`). Everything else of the host's environment (tokens, keys, passwords) is left
   * out. An empty list passes the basics only.
   */
  allow: readonly string[];
}

/** Whether `pattern` is a variable name or a name prefix followed by `*`. */
export function isEnvironmentPattern(pattern: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*\*?$/.test(pattern);
}

/**
 * The environment for an external tool: all of `environment` without options (the default,
 * as before), else only the basics and the allowed names. Names compare case-insensitively on
 * Windows, where the environment does.
 */
export function externalEnvironment(
  options: ExternalEnvironmentOptions | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  if (options === undefined) return environment;
  const fold = (name: string) => (process.platform === 'win32' ? name.toUpperCase() : name);
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const pattern of [...BASIC_ENVIRONMENT_VARIABLES, ...options.allow]) {
    if (pattern.endsWith('*')) prefixes.push(fold(pattern.slice(0, -1)));
    else exact.add(fold(pattern));
  }
  const passed: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(environment)) {
    const folded = fold(name);
    if (exact.has(folded) || prefixes.some((prefix) => folded.startsWith(prefix))) {
      passed[name] = value;
    }
  }
  return passed;
}
