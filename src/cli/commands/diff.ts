import inc from 'semver/functions/inc.js';
import { ToolcapError } from '../../errors/toolcap-error.js';
import { formatDiagnostic } from '../../format/format-diagnostic.js';
import { diffGroups, type GroupDiff } from '../../migrate/diff-groups.js';
import { type GroupVersion, readGroupVersion } from '../../migrate/read-group-version.js';
import { effectiveRequiredBump } from '../../migrate/semver-bump.js';
import { formatTable } from '../format-table.js';
import { type CliIo, createStyle, useColor, writeJson } from '../io.js';
import { parseCliArgs } from '../parse-cli-args.js';

/** One-line summary for `toolcap help`. */
export const summary = 'classify the changes between two versions of a group (semver check)';

/** Usage text. */
export const usage = `toolcap diff OLD NEW [--json]

Compares two versions of one group file, classifies every change as major, minor or patch,
and checks that NEW's "version" moved far enough from OLD's. OLD and NEW are file paths, or
git:REV:PATH for the file as committed at REV (PATH from the repository root, or ./PATH from
the current directory), e.g.  toolcap diff git:HEAD:schemas/calendar_tools.json schemas/calendar_tools.json

Below 1.0.0 the npm caret convention applies: a breaking change needs a minor bump (0.2 → 0.3),
anything else a patch bump. The rules are listed in docs/guide/migration.md.

Exit 0 when the version bump is enough, 1 when it is too small (or the version went down),
2 on a usage error or when OLD or NEW cannot be read or is not a valid group file.

Options:
  --json                   print {"required_bump", "actual_bump", "ok", "changes": [...], ...}`;

/** Runs `toolcap diff`. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(
    'diff',
    args,
    { json: { type: 'boolean' } },
    { min: 2, max: 2, names: 'OLD NEW' },
  );
  const json = values.json === true;
  const [oldSource, newSource] = positionals as [string, string];

  let versions: [GroupVersion, GroupVersion];
  try {
    versions = await Promise.all([
      readGroupVersion(oldSource, io.cwd),
      readGroupVersion(newSource, io.cwd),
    ]);
  } catch (error) {
    if (!ToolcapError.isInstance(error)) throw error;
    io.stderr(`toolcap: ${error.message}\n`);
    if (json) writeJson(io, { error: error.code, message: error.message, diagnostics: [] });
    return 2;
  }
  const [before, after] = versions;
  const diagnostics = [...before.diagnostics, ...after.diagnostics];
  for (const diagnostic of diagnostics) io.stderr(`${formatDiagnostic(diagnostic)}\n`);
  if (before.group === undefined || after.group === undefined) {
    const invalid = [before, after].filter((version) => version.group === undefined);
    const message = `cannot compare: ${invalid.map((version) => version.label).join(' and ')} ${invalid.length > 1 ? 'are not valid group files' : 'is not a valid group file'} (see the errors above; "toolcap validate" checks a directory)`;
    io.stderr(`toolcap: ${message}\n`);
    if (json) writeJson(io, { error: 'INVALID_GROUP_FILE', message, diagnostics });
    return 2;
  }

  const result = diffGroups(before.group, after.group);
  if (json) writeJson(io, result);
  else printDiff(io, result);
  return result.ok ? 0 : 1;
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
