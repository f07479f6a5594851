import { escapePointerToken } from '../format/json-pointer.js';
import type { SchemaWarningSink } from './schema-warnings.js';

/** A provider's rule for the keys of `properties` (its parameter names). */
export interface PropertyNameRule {
  /** The names the provider accepts. */
  pattern: RegExp;
  /** The pattern in words, e.g. `letters, digits and underscores, at most 64 characters`. */
  allowed: string;
  /** What a name outside the pattern does, e.g. `Anthropic rejects the whole request`. */
  effect: string;
}

const MAX_SUGGESTED_LENGTH = 64;

/**
 * Warns (`PARAMETER_NAME_INVALID`) when the property `name`, at `pointer`, breaks `rule`: the
 * warning names the property, the pattern, what the provider does and the fix. Names are never
 * renamed here: a new name would change the arguments the tool's handler receives.
 */
export function checkPropertyName(
  name: string,
  pointer: string,
  rule: PropertyNameRule,
  sink: SchemaWarningSink,
): void {
  if (rule.pattern.test(name)) return;
  const suggestion = suggestPropertyName(name, rule);
  const example = suggestion === undefined ? '' : ` (e.g. to ${JSON.stringify(suggestion)})`;
  sink.add(
    'PARAMETER_NAME_INVALID',
    name,
    pointer,
    `property name ${JSON.stringify(name)} does not match ${rule.pattern.source} (${rule.allowed}): ${rule.effect}. Rename the property in input_schema and in the handler that reads it${example}; toolcap does not rename parameters, because that would change the arguments the handler receives`,
  );
}

/** `checkPropertyName` for every key of a `properties` map found at `pointer`. */
export function checkPropertyNames(
  properties: Record<string, unknown>,
  pointer: string,
  rule: PropertyNameRule,
  sink: SchemaWarningSink,
): void {
  for (const name of Object.keys(properties)) {
    checkPropertyName(name, `${pointer}/${escapePointerToken(name)}`, rule, sink);
  }
}

/**
 * A name `rule` accepts, built as tool names are (accents folded, other characters → `_`, a
 * leading digit prefixed), or undefined when nothing usable is left (`日本`).
 */
function suggestPropertyName(name: string, rule: PropertyNameRule): string | undefined {
  const converted = convertPropertyName(name).slice(0, MAX_SUGGESTED_LENGTH);
  return converted !== '' && rule.pattern.test(converted) ? converted : undefined;
}

/**
 * `name` with accents folded, every run of other characters than ASCII letters, digits and `_`
 * turned into one `_`, `_` trimmed at both ends and a leading digit prefixed with `_`
 * (`filter[id]` → `filter_id`, `$top` → `top`); `""` when nothing usable is left. Not shortened.
 */
export function convertPropertyName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(\d)/, '_$1');
}
