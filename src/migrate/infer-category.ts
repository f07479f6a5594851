import type { ToolCategory } from '../format/types.js';
import { categoryFromName } from '../providers/import/infer-category.js';

/** How many leading words of a description are searched for a verb. */
const DESCRIPTION_WORDS = 8;

/**
 * The category the first verb of a description suggests, using the verb table `fromProvider`
 * uses for names (`categoryFromName`), and also trying each word without an -s, -es, -ies,
 * -ing or -ed ending: "Calculates the area ..." → analysis, "Retrieves the list ..." →
 * retrieval. Only the first eight words are searched. Undefined when no verb is found.
 */
export function categoryFromDescription(
  description: string,
): { category: ToolCategory; word: string } | undefined {
  for (const word of splitWords(description).slice(0, DESCRIPTION_WORDS)) {
    for (const candidate of inflections(word)) {
      const category = categoryFromName(candidate);
      if (category !== undefined) return { category, word };
    }
  }
  return undefined;
}

/**
 * The category `toolcap import` gives a tool that carries no MCP hints and names none: the
 * verb of its name (`get_weather` → retrieval, `categoryFromName`), else the first verb of its
 * description (`categoryFromDescription`), else `mutation`, the conservative default.
 */
export function inferToolCategory(name: string, description: string): ToolCategory {
  return categoryFromName(name) ?? categoryFromDescription(description)?.category ?? 'mutation';
}

/** The word, then its stems without -ies/-es/-s (kept only if 4+ letters: `news` is not `new`), -ing or -ed. */
function inflections(word: string): string[] {
  const candidates = [word];
  const plural = (stem: string) => {
    if (stem.length >= 4) candidates.push(stem);
  };
  if (word.endsWith('ies')) plural(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) plural(word.slice(0, -2));
  if (word.endsWith('s')) plural(word.slice(0, -1));
  if (word.endsWith('ing')) candidates.push(word.slice(0, -3), `${word.slice(0, -3)}e`);
  if (word.endsWith('ed')) candidates.push(word.slice(0, -2), word.slice(0, -1));
  return candidates;
}

/** Lowercase words of an identifier or sentence: `math.getArea-v2` → `math`, `get`, `area`, `v2`. */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}
