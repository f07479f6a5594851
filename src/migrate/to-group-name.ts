import { GROUP_NAME_PATTERN } from '../format/names.js';

const MAX_GROUP_NAME_LENGTH = 64;

/**
 * A valid snake_case group name for any text (a server name, a file name): accents dropped,
 * camelCase split, every other run of characters a single `_`, lowercase, a leading digit
 * prefixed with `g_`, at most 64 characters; `group` when nothing is left.
 * `"OP.GG MCP Server"` → `op_gg_mcp_server`, `"12306-mcp"` → `g_12306_mcp`.
 */
export function toGroupName(text: string): string {
  let name = text
    .normalize('NFKD')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (name === '') name = 'group';
  if (/^[0-9]/.test(name)) name = `g_${name}`;
  name = name.slice(0, MAX_GROUP_NAME_LENGTH).replace(/_+$/, '');
  return GROUP_NAME_PATTERN.test(name) ? name : 'group';
}
