import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import inc from 'semver/functions/inc.js';
import { ToolcapError } from '../../errors/toolcap-error.js';
import { formatDiagnostic } from '../../format/format-diagnostic.js';
import { diffGroups, type GroupDiff } from '../../migrate/diff-groups.js';
import {
  type GroupVersion,
  isGroupSourceMissing,
  readGroupVersion,
} from '../../migrate/read-group-version.js';
import { effectiveRequiredBump } from '../../migrate/semver-bump.js';
import { CliUsageError } from '../cli-usage-error.js';
import { formatTable } from '../format-table.js';
import { type CliIo, createStyle, useColor, writeJson } from '../io.js';
import { parseCliArgs } from '../parse-cli-args.js';

/** One-line summary for `toolcap help`. */
export const summary = 'classify the changes between two versions of a group (semver check)';

/** Usage text. */
export const usage = `toolcap diff OLD NEW [--allow-missing-old] [--json]

Compares two versions of one group file, classifies every change as major, minor or patch,
and checks that NEW's "version" moved far enough from OLD's. OLD and NEW are file paths, or
git:REV:PATH for the file as committed at REV (PATH from the repository root, or ./PATH from
the current directory), e.g.  toolcap diff git:HEAD:schemas/calendar_tools.json schemas/calendar_tools.json

Below 1.0.0 the npm caret convention applies: a breaking change needs a minor bump (0.2 → 0.3),
anything else a patch bump. The rules are listed in docs/guide/migration.md.

Exit 0 when the version bump is enough, 1 when it is too small (or the version went down),
2 on a usage error or when OLD or NEW cannot be read or is not a valid group file.

Options:
  --allow-missing-old      a missing OLD (a path that does not exist, or a file not yet in REV)
                           means NEW is a new group: no version rule applies, exit 0
  --json                   print {"required_bump", "actual_bump", "ok", "changes": [...], ...};
                           diagnostics go in its "diagnostics", not on stderr`;

/** Runs `toolcap diff`. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(
    'diff',
    args,
    { 'allow-missing-old': { type: 'boolean' }, json: { type: 'boolean' } },
    { min: 2, max: 2, names: 'OLD NEW' },
  );
  const json = values.json === true;
  const allowMissingOld = values['allow-missing-old'] === true;
  const [oldSource, newSource] = positionals as [string, string];
  await refuseDirectories([oldSource, newSource], io.cwd);

  const [oldRead, newRead] = await Promise.allSettled([
    readGroupVersion(oldSource, io.cwd),
    readGroupVersion(newSource, io.cwd),
  ]);
  const oldError: unknown = oldRead.status === 'rejected' ? oldRead.reason : undefined;
  const newError: unknown = newRead.status === 'rejected' ? newRead.reason : undefined;
  // a group added after REV: the one unreadable OLD that --allow-missing-old accepts
  const oldMissing = oldError !== undefined && (await isGroupSourceMissing(oldSource, io.cwd));
  const oldFailed = oldError !== undefined && !(oldMissing && allowMissingOld);
  const failure = oldFailed ? oldError : newError;
  if (failure !== undefined) {
    if (!ToolcapError.isInstance(failure)) throw failure;
    const message =
      oldFailed && oldMissing
        ? `${failure.message}. If ${newSource} is a new group, pass --allow-missing-old: a new group has no earlier version to check`
        : failure.message;
    // with --json the document carries the message: stderr stays empty
    if (json) writeJson(io, { error: failure.code, message, diagnostics: [] });
    else io.stderr(`toolcap: ${message}\n`);
    return 2;
  }
  const before = oldRead.status === 'fulfilled' ? oldRead.value : undefined;
  const after = (newRead as PromiseFulfilledResult<GroupVersion>).value;
  const versions = before === undefined ? [after] : [before, after];
  const diagnostics = versions.flatMap((version) => version.diagnostics);
  if (!json) for (const diagnostic of diagnostics) io.stderr(`${formatDiagnostic(diagnostic)}\n`);
  const invalid = versions.filter((version) => version.group === undefined);
  if (invalid.length > 0) {
    const message = `cannot compare: ${invalid.map((version) => version.label).join(' and ')} ${invalid.length > 1 ? 'are not valid group files' : 'is not a valid group file'} (${json ? 'see "diagnostics"' : 'see the errors above'}; "toolcap validate" checks a directory)`;
    if (json) writeJson(io, { error: 'INVALID_GROUP_FILE', message, diagnostics });
    else io.stderr(`toolcap: ${message}\n`);
    return 2;
  }

  if (before === undefined) {
    const group = after.group!;
    if (json) {
      writeJson(io, {
        group: group.group,
        old_group: null,
        old_version: null,
        new_version: group.version,
        group_added: true,
        required_bump: 'none',
        actual_bump: null,
        ok: true,
        changes: [],
        diagnostics,
      });
    } else {
      const style = createStyle(useColor(io));
      io.stdout(
        `group ${group.group}: new group at ${group.version} (OLD ${oldSource} does not exist)\n`,
      );
      io.stdout(`${style.green('no earlier version, so no version bump rule applies: ok')}\n`);
    }
    return 0;
  }

  const result = diffGroups(before.group!, after.group!);
  if (json) writeJson(io, { ...result, diagnostics });
  else printDiff(io, result);
  return result.ok ? 0 : 1;
}

/** diff compares two files: a directory (a common slip in CI loops) is a usage error. */
async function refuseDirectories(sources: readonly string[], cwd: string): Promise<void> {
  for (const source of sources) {
    if (source.startsWith('git:')) continue;
    const stats = await stat(resolve(cwd, source)).catch(() => undefined);
    if (stats?.isDirectory() !== true) continue;
    throw new CliUsageError(
      `${source} is a directory, but "toolcap diff" compares two group files: pass OLD and NEW versions of one <group>_tools.json (e.g. toolcap diff git:HEAD:schemas/calendar_tools.json schemas/calendar_tools.json), once per changed file`,
      'diff',
    );
  }
}

function printDiff(io: CliIo, result: GroupDiff): void {
  const style = createStyle(useColor(io));
  const paint = { major: style.red, minor: style.yellow, patch: style.dim };
  // a renamed group (or two different groups) shows each name with its own version
  io.stdout(
    result.old_group === result.group
      ? `group ${result.group}: ${result.old_version} -> ${result.new_version}\n`
      : `group ${result.old_group}@${result.old_version} -> ${result.group}@${result.new_version}\n`,
  );
  if (result.changes.length === 0) {
    io.stdout('no changes\n');
  } else {
    const rows = result.changes.map((change) => [
      change.bump.toUpperCase(),
      change.kind,
      change.pointer || '/',
      change.message,
    ]);
    const table = formatTable(['BUMP', 'KIND', 'POINTER', 'CHANGE'], rows)
      .split('\n')
      .map((line, index) => {
        const change = index === 0 ? undefined : result.changes[index - 1];
        return change === undefined ? style.bold(line) : paint[change.bump](line);
      });
    io.stdout(`${table.join('\n')}\n`);
  }
  const verdict = `required bump: ${result.required_bump}; actual bump: ${result.actual_bump}`;
  if (result.ok) {
    io.stdout(`${style.green(`${verdict}: ok`)}\n`);
    return;
  }
  const needed = effectiveRequiredBump(result.required_bump, result.old_version);
  const next = needed === 'none' ? null : inc(result.old_version, needed);
  const hint =
    result.actual_bump === 'downgrade'
      ? 'the version went down'
      : `NEW must be at least ${next ?? 'a higher version'}`;
  io.stdout(`${style.red(`${verdict}: not enough (${hint})`)}\n`);
}
