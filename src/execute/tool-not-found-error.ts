import { ToolcapError } from '../errors/toolcap-error.js';
import { MAX_QUOTED_NAME_LENGTH, shortenName } from '../util/shorten-name.js';

/**
 * Thrown by `registry.execute` when no tool has the requested name: a bug in the caller or a
 * model inventing a tool, never a handler failure. The message lists the closest names; a
 * name longer than any valid tool name is cut in the message (`toolName` keeps it whole).
 */
export class ToolNotFoundError extends ToolcapError {
  /** The requested name. */
  readonly toolName: string;
  /** The closest registered names, best first (possibly empty). */
  readonly suggestions: readonly string[];

  constructor(toolName: string, suggestions: readonly string[], toolCount: number) {
    const hint =
      suggestions.length > 0
        ? ` Did you mean ${suggestions.map((name) => `"${name}"`).join(' or ')}?`
        : toolCount === 0
          ? ' The registry holds no tools.'
          : ` The registry holds ${toolCount} tools; list them with registry.list() or "toolcap list".`;
    const length =
      toolName.length > MAX_QUOTED_NAME_LENGTH ? ` (${toolName.length} characters)` : '';
    super(
      'TOOL_NOT_FOUND',
      `No tool named ${JSON.stringify(shortenName(toolName))}${length}.${hint}`,
    );
    this.name = 'ToolNotFoundError';
    this.toolName = toolName;
    this.suggestions = Object.freeze([...suggestions]);
  }
}
