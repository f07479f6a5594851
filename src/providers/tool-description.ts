import type { Warning } from '../format/types.js';

/**
 * The tool description a provider gets: trimmed, and cut to `maxLength` characters (ending in
 * "…") with a `DESCRIPTION_TRUNCATED` warning when longer. Undefined when empty, so the field
 * is omitted (Bedrock rejects an empty description).
 */
export function prepareDescription(
  description: string | undefined,
  tool: string,
  warnings: Warning[],
  maxLength = Number.POSITIVE_INFINITY,
  provider = '',
): string | undefined {
  const text = (description ?? '').trim();
  if (text === '') return undefined;
  if (text.length <= maxLength) return text;
  warnings.push({
    code: 'DESCRIPTION_TRUNCATED',
    message: `the description has ${text.length} characters; ${provider} rejects more than ${maxLength}, so it was cut to ${maxLength}`,
    tool,
  });
  return `${text.slice(0, maxLength - 1).trimEnd()}…`;
}
