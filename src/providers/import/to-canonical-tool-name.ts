import { isValidToolName } from '../../format/names.js';
import { hashName } from '../../util/hash-name.js';

const MAX_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

/**
 * A deterministic canonical tool name (`^[A-Za-z_][A-Za-z0-9_]{0,63}$`, valid for every
 * provider) for any provider name: other characters (`.`, `-`, `/`, `:`, spaces, ...) become
 * `_`, runs of `_` collapse, trailing `_` go, a leading digit gets a `_` prefix, and a name
 * longer than 64 characters keeps its first 55 characters plus `_` and 8 hex digits of a hash
 * (32-bit FNV-1a) of the whole name, so distinct long names stay distinct. A name with no
 * Latin letter or digit (`天気`, `получить_погоду`, `---`) becomes `tool_` plus the same hash
 * of the whole name. Valid names come back unchanged.
 */
export function toCanonicalToolName(name: string): string {
  if (isValidToolName(name)) return name;
  let converted = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/_+/g, '_');
  if (converted.length > 1) converted = converted.replace(/_$/, '');
  // nothing Latin survived (天気, получить_погоду, ---): a fixed word would give every such tool
  // the same name, so the hash of the original keeps them apart
  if (converted === '' || converted === '_') return `tool_${hashName(name)}`;
  if (/^[0-9]/.test(converted)) converted = `_${converted}`;
  if (converted.length > MAX_NAME_LENGTH) {
    converted = `${converted.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${hashName(name)}`;
  }
  return converted;
}
