import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ToolcapError } from '../errors/toolcap-error.js';
import { DEFAULT_LOAD_LIMITS, type LoadLimits } from '../format/limits.js';
import type { Diagnostic, ToolGroupDefinition } from '../format/types.js';
import { checkGroupText } from '../load/read-group-file.js';
import { errorMessage } from '../util/error-message.js';

/** One version of a group file, read and validated for `diffGroups`. */
export interface GroupVersion {
  /** How the source was named (a path or `git:REV:PATH`), for messages. */
  label: string;
  /** The valid group, or undefined when any error diagnostic was found. */
  group: ToolGroupDefinition | undefined;
  /** Every problem, errors and warnings, with line and column where known. */
  diagnostics: Diagnostic[];
}

const GIT_PREFIX = 'git:';
const GIT_OUTPUT_LIMIT = 64 * 1024 * 1024;

/**
 * Reads one version of a group file: a path (relative to `cwd`), or `git:REV:PATH` for the
 * file as committed at REV (`git show REV:PATH`, so PATH is relative to the repository root
 * unless it starts with `./`). Throws a ToolcapError (`GROUP_SOURCE_UNREADABLE`) when the file
 * or revision cannot be read.
 */
export async function readGroupSource(source: string, cwd: string): Promise<string> {
  if (source.startsWith(GIT_PREFIX)) return readFromGit(source, cwd);
  try {
    return await readFile(resolve(cwd, source), 'utf8');
  } catch (error) {
    throw new ToolcapError(
      'GROUP_SOURCE_UNREADABLE',
      `cannot read ${source}: ${errorMessage(error)}; check the path`,
    );
  }
}

/** REV and PATH of `git:REV:PATH`, or undefined when the source is malformed. */
function parseGitSource(source: string): { revision: string; path: string } | undefined {
  const spec = source.slice(GIT_PREFIX.length);
  const separator = spec.indexOf(':');
  const revision = separator > 0 ? spec.slice(0, separator) : '';
  const path = separator > 0 ? spec.slice(separator + 1) : '';
  // a revision starting with "-" would be read by git as an option
  if (revision === '' || path === '' || revision.startsWith('-')) return undefined;
  return { revision, path };
}

function readFromGit(source: string, cwd: string): Promise<string> {
  const parsed = parseGitSource(source);
  if (parsed === undefined) {
    return Promise.reject(
      new ToolcapError(
        'GROUP_SOURCE_UNREADABLE',
        `${JSON.stringify(source)} is not of the form git:REV:PATH (e.g. git:HEAD~1:schemas/calendar_tools.json)`,
      ),
    );
  }
  const { revision, path } = parsed;
  return new Promise((resolvePromise, reject) => {
    execFile(
      'git',
      ['show', `${revision}:${path}`],
      { cwd, maxBuffer: GIT_OUTPUT_LIMIT, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error !== null) {
          const detail = (stderr || error.message).trim().split('\n')[0];
          reject(
            new ToolcapError(
              'GROUP_SOURCE_UNREADABLE',
              `cannot read ${source} from git: ${detail}; check the revision and the path (relative to the repository root, or ./PATH)`,
            ),
          );
          return;
        }
        // `git show REV:DIR` lists the directory ("tree REV:DIR", a blank line, one entry a line)
        if (stdout.startsWith(`tree ${revision}:${path}\n`)) {
          const groupFiles = stdout
            .split('\n')
            .slice(2)
            .filter((entry) => entry.endsWith('_tools.json'));
          const files =
            groupFiles.length > 0 ? ` (group files there: ${groupFiles.join(', ')})` : '';
          reject(
            new ToolcapError(
              'GROUP_SOURCE_UNREADABLE',
              `${source} is a directory at ${revision}; diff compares one group file, e.g. git:${revision}:${path.replace(/\/$/, '')}/<group>_tools.json${files}`,
            ),
          );
          return;
        }
        resolvePromise(stdout);
      },
    );
  });
}

/**
 * Whether `source` names a group file that does not exist, as opposed to one that cannot be
 * read: a path that is not there, or `git:REV:PATH` where REV exists but has no PATH (a group
 * added after REV). A bad revision, a path outside a repository or an unreadable file is not
 * missing: those are errors to fix.
 */
export async function isGroupSourceMissing(source: string, cwd: string): Promise<boolean> {
  if (!source.startsWith(GIT_PREFIX)) {
    try {
      await stat(resolve(cwd, source));
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT';
    }
  }
  const parsed = parseGitSource(source);
  if (parsed === undefined) return false;
  // exit codes, not git's (translated) messages, tell a missing path from a bad revision
  const revisionExists = await runGit(
    ['rev-parse', '--verify', '--quiet', `${parsed.revision}^{tree}`],
    cwd,
  );
  if (!revisionExists) return false;
  return !(await runGit(['cat-file', '-e', `${parsed.revision}:${parsed.path}`], cwd));
}

/** Runs git and tells whether it succeeded. */
function runGit(args: readonly string[], cwd: string): Promise<boolean> {
  return new Promise((resolvePromise) => {
    execFile('git', [...args], { cwd }, (error) => resolvePromise(error === null));
  });
}

/**
 * Parses and validates one version of a group file exactly as the loader does, except that the
 * file name need not match the group (old copies are often named differently).
 */
export function parseGroupVersion(
  text: string,
  label: string,
  limits: LoadLimits = DEFAULT_LOAD_LIMITS,
): GroupVersion {
  const { validation, diagnostics } = checkGroupText(text, label, { limits });
  const failed = diagnostics.some((diagnostic) => diagnostic.severity === 'error');
  return { label, group: failed ? undefined : validation?.group, diagnostics };
}

/** Reads and validates one version (see `readGroupSource` for the accepted forms). */
export async function readGroupVersion(source: string, cwd: string): Promise<GroupVersion> {
  return parseGroupVersion(await readGroupSource(source, cwd), source);
}
