import { ToolcapError } from '../errors/toolcap-error.js';
import { TranslationError } from '../errors/translation-error.js';
import {
  checkOptions,
  isBoolean,
  isObject,
  isRecordOf,
  isString,
  type OptionCheck,
  type OptionSpec,
} from '../util/check-options.js';
import type { ProviderId } from './provider-types.js';

const isRecursionDepth: OptionCheck = (value) =>
  Number.isInteger(value) && (value as number) >= 0
    ? undefined
    : 'a whole number of expansions, 0 or more (default 3)';

const isDeferLoading: OptionCheck = (value) =>
  typeof value === 'boolean' ||
  (Array.isArray(value) && value.every((name) => typeof name === 'string'))
    ? undefined
    : 'true, false or an array of tool names';

const ANTHROPIC_TTLS: readonly unknown[] = ['5m', '1h'];

const isCacheControl: OptionCheck = (value) => {
  const shape = 'true, false or { type: "ephemeral", ttl?: "5m" | "1h" }';
  if (typeof value === 'boolean') return undefined;
  if (isObject(value) !== undefined) return shape;
  const { type, ttl, ...rest } = value as { type?: unknown; ttl?: unknown };
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) return { problem: `has an unknown key "${extra}"; it must be ${shape}` };
  if (type !== 'ephemeral') {
    return { problem: `has type ${JSON.stringify(type)}; type must be "ephemeral"` };
  }
  if (ttl !== undefined && !ANTHROPIC_TTLS.includes(ttl)) {
    return {
      problem: `has ttl ${JSON.stringify(ttl)}; ttl must be "5m" (the default) or "1h", the cache lifetimes Anthropic accepts`,
    };
  }
  return undefined;
};

const isAnthropicToolSearch: OptionCheck = (value) =>
  value === 'bm25' || value === 'regex' || value === 'client' || value === false
    ? undefined
    : '"bm25" (the default), "regex", "client" or false';

const isResponsesToolSearch: OptionCheck = (value) =>
  typeof value === 'boolean' || value === 'client'
    ? undefined
    : 'true (the default, the hosted search), false or "client"';

const isNamespaces: OptionCheck = (value) =>
  typeof value === 'boolean'
    ? undefined
    : isRecordOf(isString, 'true, false or an object of group descriptions by group name')(value);

const OPENAI_CHAT: OptionSpec = { strict: isBoolean, recursionDepth: isRecursionDepth };

/** The checks of each provider's translate options, by option name. */
const SPECS: { readonly [P in ProviderId]: OptionSpec } = {
  openai: OPENAI_CHAT,
  'openai-responses': {
    ...OPENAI_CHAT,
    deferLoading: isDeferLoading,
    toolSearch: isResponsesToolSearch,
    namespaces: isNamespaces,
  },
  anthropic: {
    cacheControl: isCacheControl,
    deferLoading: isDeferLoading,
    toolSearch: isAnthropicToolSearch,
    inputExamples: isBoolean,
  },
  google: { recursionDepth: isRecursionDepth, parametersJsonSchema: isBoolean },
  bedrock: { recursionDepth: isRecursionDepth, cachePoint: isBoolean },
  mcp: { deriveAnnotations: isBoolean },
  canonical: {},
};

/** The names of the options `translate(tools, provider, options)` takes for `provider`. */
export function translateOptionNames(provider: ProviderId): readonly string[] {
  return Object.keys(SPECS[provider]);
}

/**
 * Checks the `options` of `translate(tools, provider, options)` and throws a
 * `TranslationError` (`INVALID_OPTIONS`) naming the first unknown option (with a did-you-mean,
 * the provider's options, and the provider it belongs to when it is another's) or the first
 * value of the wrong type, with the values accepted. `provider` must be a valid id.
 */
export function checkTranslateOptions(provider: ProviderId, options: unknown): void {
  if (options === undefined) return;
  const caller = `translate(tools, "${provider}")`;
  const spec = SPECS[provider];
  const accepted = Object.keys(spec);
  if (options !== null && typeof options === 'object' && !Array.isArray(options)) {
    for (const name of Object.keys(options)) {
      if (Object.hasOwn(spec, name)) continue;
      // a shared options object: say whose option it is rather than only "unknown"
      const owners = (Object.keys(SPECS) as ProviderId[]).filter((id) =>
        Object.hasOwn(SPECS[id], name),
      );
      if (owners.length > 0 || accepted.length === 0) {
        throw new TranslationError(
          'INVALID_OPTIONS',
          `${caller}: "${name}" is not an option of ${provider}${owners.length > 0 ? ` (it is an option of ${owners.join(', ')})` : ''}; ${accepted.length > 0 ? `${provider} options: ${accepted.join(', ')}` : `${provider} takes no options`}. Pass each provider its own options`,
        );
      }
    }
  }
  try {
    checkOptions(caller, options, spec);
  } catch (error) {
    if (!ToolcapError.isInstance(error)) throw error;
    throw new TranslationError('INVALID_OPTIONS', error.message, { cause: error });
  }
}
