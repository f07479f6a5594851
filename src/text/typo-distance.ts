/**
 * Whether `a` and `b` are at most one edit apart in the Damerau-Levenshtein sense: one
 * insertion, deletion, substitution or transposition of adjacent characters. Linear time, no
 * allocation.
 */
export function isWithinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const lengthA = a.length;
  const lengthB = b.length;
  if (Math.abs(lengthA - lengthB) > 1) return false;
  let start = 0;
  while (start < lengthA && start < lengthB && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = lengthA;
  let endB = lengthB;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  const restA = endA - start;
  const restB = endB - start;
  // what differs is at most one character on each side: insertion, deletion or substitution
  if (restA <= 1 && restB <= 1) return true;
  // or two adjacent characters swapped
  return (
    restA === 2 &&
    restB === 2 &&
    a.charCodeAt(start) === b.charCodeAt(start + 1) &&
    a.charCodeAt(start + 1) === b.charCodeAt(start)
  );
}

/** `word` with one character removed, for each position (symmetric-delete typo lookup). */
export function deletionVariants(word: string): string[] {
  const variants: string[] = [];
  for (let index = 0; index < word.length; index++) {
    variants.push(word.slice(0, index) + word.slice(index + 1));
  }
  return variants;
}
