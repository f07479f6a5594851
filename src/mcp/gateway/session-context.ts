import type { ToolContext } from '../../execute/types.js';

/**
 * The key under which a client sends its context: in `initialize`'s
 * `params.capabilities.experimental` (for the whole session) and in any request's
 * `params._meta` (for that request).
 */
export const CONTEXT_KEY = 'toolcap/context';

const MAX_KEYS = 64;
const MAX_KEY_LENGTH = 128;
const MAX_VALUE_LENGTH = 4_096;

/** A context read from a client message, or what is wrong with it. */
export type ContextReading = { ok: true; context: ToolContext } | { ok: false; problem: string };

/**
 * Reads `container["toolcap/context"]`: an object of at most 64 keys whose values are strings
 * (at most 4,096 characters), numbers, booleans or null. `where` names the container in
 * messages (e.g. `params._meta`). An absent key is an empty context.
 */
export function readContext(container: unknown, where: string): ContextReading {
  if (container === null || typeof container !== 'object') return { ok: true, context: {} };
  if (!Object.hasOwn(container, CONTEXT_KEY)) return { ok: true, context: {} };
  const value = (container as Record<string, unknown>)[CONTEXT_KEY];
  const field = `${where}["${CONTEXT_KEY}"]`;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      problem: `${field} must be an object of context values, e.g. {"user_id": "u1"}`,
    };
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_KEYS) {
    return { ok: false, problem: `${field} has ${entries.length} keys, more than ${MAX_KEYS}` };
  }
  const context: ToolContext = {};
  for (const [key, item] of entries) {
    if (key === '' || key.length > MAX_KEY_LENGTH) {
      return {
        ok: false,
        problem: `${field} has a key of ${key.length} characters; keys have 1 to ${MAX_KEY_LENGTH}`,
      };
    }
    const scalar =
      item === null ||
      typeof item === 'boolean' ||
      (typeof item === 'number' && Number.isFinite(item)) ||
      (typeof item === 'string' && item.length <= MAX_VALUE_LENGTH);
    if (!scalar) {
      return {
        ok: false,
        problem: `${field}.${key} must be a string (at most ${MAX_VALUE_LENGTH} characters), a number, a boolean or null`,
      };
    }
    // defineProperty: a key such as "__proto__" stays a plain key
    Object.defineProperty(context, key, {
      value: item,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { ok: true, context };
}

/**
 * The context a call runs with: the session's (from `initialize`), then the request's, then the
 * operator's (`--context`), each overriding the one before, so a client can never replace a
 * value the operator set.
 */
export function mergeContexts(
  session: ToolContext,
  request: ToolContext,
  operator: ToolContext,
): ToolContext {
  const merged: ToolContext = {};
  for (const source of [session, request, operator]) {
    for (const [key, value] of Object.entries(source)) {
      Object.defineProperty(merged, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return merged;
}
