import type { WrittenGroup } from '../migrate/example-request-files.js';
import type { createStyle } from './io.js';

/**
 * The heading `toolcap learn` and `toolcap examples` print above a group's table: the group, its
 * version change, the file, and whether the file was written.
 */
export function writtenGroupHeading(
  style: ReturnType<typeof createStyle>,
  group: WrittenGroup,
  dryRun: boolean,
): string {
  const state = !group.changed
    ? style.dim('unchanged')
    : dryRun
      ? style.yellow('dry run, not written')
      : group.written
        ? style.green('written')
        : style.red('not written');
  const version = group.changed
    ? `${group.old_version} -> ${group.new_version}`
    : group.old_version;
  return `\n${style.bold(group.group)} ${version}  ${group.file}  (${state})\n`;
}
