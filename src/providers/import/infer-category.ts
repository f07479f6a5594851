import type { ToolAnnotations, ToolCategory } from '../../format/types.js';
import { annotationsForCategory } from '../derive-annotations.js';

const VERBS: Readonly<Record<string, ToolCategory>> = Object.freeze({
  ...verbs(
    'retrieval',
    'get fetch list read find show view lookup look load recall retrieve download browse open query describe inspect lookup whois',
  ),
  ...verbs(
    'analysis',
    'search analyze analyse compare calculate compute count summarize summarise evaluate check validate predict estimate score rank classify detect extract explain diff measure test verify lint review recommend parse convert translate',
  ),
  ...verbs(
    'creation',
    'create add new insert generate make build post send publish upload register schedule book launch draft compose append copy clone fork invite submit record save',
  ),
  ...verbs(
    'mutation',
    'update edit set delete remove move rename modify change cancel complete close archive patch replace reset clear mark toggle enable disable stop kill assign merge apply approve reject restore sync overwrite write upsert drop purge revoke unpublish unsubscribe',
  ),
});

/** Verbs that name a change to existing data even when the tool says it is not destructive. */
const CLEAR_MUTATIONS = new Set(
  'update edit set rename move modify change cancel complete close mark toggle enable disable assign patch'.split(
    ' ',
  ),
);

function verbs(category: ToolCategory, list: string): Record<string, ToolCategory> {
  return Object.fromEntries(list.split(' ').map((verb) => [verb, category]));
}

/**
 * The category a tool name suggests: the first word (split at `_`, `-`, `.`, camelCase) that is
 * a known verb (`get_user` → retrieval, `searchDocs` → analysis, `file_edit` → mutation).
 */
export function categoryFromName(name: string): ToolCategory | undefined {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  for (const word of words) {
    if (Object.hasOwn(VERBS, word)) return VERBS[word];
  }
  return undefined;
}

/**
 * Infers a category for an imported tool. MCP hints come first: `readOnlyHint: true` →
 * retrieval (analysis when the name's verb says so); `destructiveHint: true` → mutation;
 * `destructiveHint: false` → creation (mutation for clear change verbs such as update or
 * complete). Without hints the name's verb decides, then `fallback`.
 */
export function inferCategory(
  name: string,
  annotations: ToolAnnotations | undefined,
  fallback: ToolCategory,
): ToolCategory {
  const fromName = categoryFromName(name);
  if (annotations?.readOnlyHint === true) return fromName === 'analysis' ? 'analysis' : 'retrieval';
  if (annotations?.destructiveHint === true) return 'mutation';
  if (annotations?.destructiveHint === false) {
    const verb = name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .find((word) => Object.hasOwn(VERBS, word));
    return verb !== undefined && CLEAR_MUTATIONS.has(verb) ? 'mutation' : 'creation';
  }
  return fromName ?? fallback;
}

/**
 * The annotations to keep on an imported tool: those that differ from what `category` implies
 * (translate('mcp') derives the rest again), or undefined when none remain.
 */
export function annotationsBeyondCategory(
  annotations: ToolAnnotations | undefined,
  category: ToolCategory,
): ToolAnnotations | undefined {
  if (annotations === undefined) return undefined;
  const implied = annotationsForCategory(category) as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(annotations)) {
    if (implied[key] !== value) kept[key] = value;
  }
  return Object.keys(kept).length === 0 ? undefined : (kept as ToolAnnotations);
}
