/**
 * The select baseline of issue 7: a naive keyword matcher. It stems the message (regex words,
 * natural's Porter stemmer, no cache), then loops over every group's keywords (stemmed once up
 * front) and takes the tools of the groups whose keyword terms all occur in the message, up to
 * `maxTools`. No ranking, reasons, filters or budgets: it does much less than `select`.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { stem } = require('natural/lib/natural/stemmers/porter_stemmer.js');

function words(text) {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** A matcher over `groups` (group definitions): `(message, maxTools) => tool names`. */
export function createNaiveMatcher(groups) {
  const entries = groups.map((group) => ({
    tools: group.tools.map((tool) => tool.name),
    keywords: group.selection.keywords.map((keyword) => words(keyword).map((word) => stem(word))),
  }));
  return (message, maxTools = 20) => {
    const terms = new Set(words(message).map((word) => stem(word)));
    const selected = [];
    for (const { tools, keywords } of entries) {
      if (!keywords.some((keyword) => keyword.every((term) => terms.has(term)))) continue;
      for (const tool of tools) if (selected.length < maxTools) selected.push(tool);
    }
    return selected;
  };
}
