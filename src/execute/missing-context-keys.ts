import type { RegisteredTool } from '../format/types.js';
import type { ToolContext } from './types.js';

/** The registry's services with the call's services over them. */
export function collectServices(
  registryServices: ReadonlyMap<string, unknown> | undefined,
  callServices: Readonly<Record<string, unknown>> | undefined,
): Map<string, unknown> {
  const services = new Map(registryServices);
  if (callServices !== undefined) {
    for (const key of Object.keys(callServices)) services.set(key, callServices[key]);
  }
  return services;
}

/**
 * The `requires_context` keys of `tool` that neither the call context nor a service provides
 * (absent or null): a call to the tool would fail with `MISSING_CONTEXT`.
 */
export function missingContextKeys(
  tool: RegisteredTool,
  context: ToolContext,
  services: ReadonlyMap<string, unknown>,
): string[] {
  return tool.metadata.requires_context.filter(
    (key) => contextValue(key, context, services) === undefined,
  );
}

/** The value of a context key: the call context's, else the service's; undefined when neither is set. */
export function contextValue(
  key: string,
  context: ToolContext,
  services: ReadonlyMap<string, unknown>,
): unknown {
  const given = context !== null && typeof context === 'object' ? context : {};
  const value = Object.hasOwn(given, key) ? given[key] : undefined;
  if (value !== undefined && value !== null) return value;
  const service = services.get(key);
  return service === null ? undefined : service;
}
