import type { ToolDefinition, Warning } from '../format/types.js';
import type { ProviderId, ProviderPayload, TranslateOptions } from './provider-types.js';

/** One tool translated for a provider, before list-level rules apply. */
export interface PreparedTool<Entry> {
  entry: Entry;
  warnings: readonly Warning[];
}

/** A tool next to its prepared entry. */
export interface PreparedEntry<Entry> {
  tool: ToolDefinition;
  entry: Entry;
}

/** The payload built from prepared entries. */
export interface AssembledTools<Payload> {
  payload: Payload;
  /** The tools that made it into the payload, in payload order. */
  tools: readonly ToolDefinition[];
  warnings: readonly Warning[];
}

/** What a translator may know beyond the tools: the registry they come from. */
export interface TranslationContext {
  /** The description of a group, by name (a registry's; undefined outside a registry). */
  describeGroup?: (group: string) => string | undefined;
}

/**
 * One provider's translator (vercel/ai's prepare-tools pattern, split in two so the per-tool
 * half can be cached): `prepareTool` is pure and depends only on the tool and the options;
 * `assemble` applies rules about the whole list (tool-count limits, cache breakpoints, tool search).
 */
export interface ProviderTranslator<P extends ProviderId, Entry> {
  prepareTool(tool: ToolDefinition, options: TranslateOptions<P>): PreparedTool<Entry>;
  assemble(
    prepared: readonly PreparedEntry<Entry>[],
    options: TranslateOptions<P>,
    context: TranslationContext,
  ): AssembledTools<ProviderPayload<P>>;
}

/** Assembly for providers without list-level rules: entries in order, all tools kept. */
export function assembleInOrder<Entry>(
  prepared: readonly PreparedEntry<Entry>[],
): AssembledTools<Entry[]> {
  return {
    payload: prepared.map((item) => item.entry),
    tools: prepared.map((item) => item.tool),
    warnings: [],
  };
}
