import type { RegisteredTool } from '../format/types.js';
import type { ProviderId } from './provider-types.js';
import { translate } from './translate.js';

/** Characters per token of the estimate: JSON tool definitions average about four. */
export const CHARACTERS_PER_TOKEN = 4;

/**
 * Estimated tokens of one tool's definition as `provider` receives it: the length of the JSON
 * of `translate([tool], provider).payload`, divided by four, rounded up. When the translator
 * rejects the tool, the JSON of its name, description and input schema is measured instead.
 */
export function estimateToolTokens(tool: RegisteredTool, provider: ProviderId): number {
  let json: string;
  try {
    json = JSON.stringify(translate([tool], provider).payload);
  } catch {
    json = JSON.stringify({
      name: tool.name,
      description: tool.description,
      input_schema: tool.input_schema,
    });
  }
  return Math.ceil(json.length / CHARACTERS_PER_TOKEN);
}
