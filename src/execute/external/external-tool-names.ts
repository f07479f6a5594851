/** External tool naming: binaries are kebab-case (`file-edit`), tools snake_case (`file_edit`). */

/** The tool name a binary stands for: extension dropped, `-` → `_` (`file-edit.sh` → `file_edit`). */
export function toolNameFromBinary(binaryName: string): string {
  const dot = binaryName.lastIndexOf('.');
  const stem = dot > 0 ? binaryName.slice(0, dot) : binaryName;
  return stem.replaceAll('-', '_');
}

/** The binary name of a tool: `_` → `-` (`file_edit` → `file-edit`). */
export function binaryNameFromTool(toolName: string): string {
  return toolName.replaceAll('_', '-');
}
