/**
 * Static check of `pattern` regexes for catastrophic (exponential) backtracking, the ReDoS
 * shapes a backtracking engine such as V8's cannot survive on a long non-matching input:
 *
 * - a repeated group whose body repeats too, with nothing to tell the iterations apart:
 *   `(a+)+`, `(\w+\s?)*`, `(a*)*`;
 * - a repeated alternation whose branches can match the same text: `(a|a)*`, `(\w|\d)+`;
 * - inside a repeated group, two adjacent repetitions that can match the same characters:
 *   `(_\d+\d+)*`.
 *
 * Star height alone (what safe-regex2 measures) rejects common safe patterns such as
 * `^[a-z]+(-[a-z]+)*$` or `^(\d{1,3}\.){3}\d{1,3}$`: a group whose iterations start or end
 * with a mandatory delimiter the inner repetitions cannot match splits only one way, so it is
 * accepted. Character sets are compared on a sample alphabet (ASCII plus a few non-ASCII
 * characters), using the regex engine itself to decide membership.
 */

/** Why a pattern was rejected: the offending part of the source and an explanation. */
export interface BacktrackingRisk {
  /** The part of the pattern that backtracks, e.g. `(a+)+`. */
  construct: string;
  /** What is ambiguous and how to fix it. */
  reason: string;
}

type CharSet = bigint;
type RepeatNode = Extract<PatternNode, { kind: 'repeat' }>;

type PatternNode =
  | { kind: 'set'; set: CharSet; start: number; end: number }
  | { kind: 'sequence'; items: PatternNode[]; start: number; end: number }
  | { kind: 'alternation'; options: PatternNode[]; start: number; end: number }
  | { kind: 'repeat'; body: PatternNode; min: number; max: number; start: number; end: number }
  | { kind: 'assertion'; start: number; end: number }
  | { kind: 'lookaround'; body: PatternNode; start: number; end: number };

/** Repetitions whose iteration counts multiply to at most this are harmless (`(\d{1,3}){4}`). */
const BOUNDED_PATHS = 10_000;

const SAMPLE = [
  ...Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)),
  '\u00A0',
  '\u00E9',
  '\u0394',
  '\u0430',
  '\u4E2D',
  '\u2028',
  '\uFEFF',
  '\u{1F600}',
];
const ANY: CharSet = (1n << BigInt(SAMPLE.length)) - 1n;
const setCache = new Map<string, CharSet>();

/**
 * The first construct in `source` (a valid `u`-flag regex) that can backtrack exponentially,
 * or undefined when none is found. Never throws: a pattern it cannot parse is reported as a
 * risk, since it cannot be shown safe.
 */
export function findCatastrophicBacktracking(source: string): BacktrackingRisk | undefined {
  try {
    return findRisk(new PatternParser(source).parse(), source);
  } catch {
    // unparsable, or nested deeper than the stack allows: it cannot be shown safe
    return {
      construct: source,
      reason: 'the pattern could not be analysed for catastrophic backtracking; simplify it',
    };
  }
}

/**
 * An upper estimate of the polynomial degree of the work a backtracking engine may do to reject
 * a string of length n: `^\\d+x$` is 1 ... `^\\d+\\d+x$` 2 (the two repetitions trade
 * digits), and an unanchored pattern adds 1 (it is retried at every start). Patterns with
 * exponential shapes are `findCatastrophicBacktracking`'s business; for an unparsable pattern
 * this returns a high degree.
 */
export function estimateBacktrackingDegree(source: string): number {
  try {
    const tree = new PatternParser(source).parse();
    const chain = chainDegree(tree);
    return isAnchored(tree, source) ? Math.max(1, chain) : chain + 1;
  } catch {
    return 6;
  }
}

/** Repetitions up to this many times count as bounded in the degree estimate. */
const SMALL_REPEAT = 32;

/** A character set or an unbounded repetition, in pattern order, with what can skip it. */
interface Token {
  node: PatternNode;
  /** Optional constructs around it: repetitions with min 0, alternation branches, lookarounds. */
  optional: ReadonlySet<PatternNode>;
  /** Unbounded repetitions around it. */
  repeats: ReadonlySet<PatternNode>;
}

/**
 * The longest chain of unbounded repetitions R1 … Rk, in pattern order, where each can take
 * the characters the next one starts with and nothing mandatory between them stops it: the
 * engine may try every way of sharing the input between them, about n^k steps.
 */
function chainDegree(tree: PatternNode): number {
  const tokens: Token[] = [];
  collectTokens(tree, new Set(), new Set(), tokens);
  const chains = new Map<Token, number>();
  let best = 0;
  tokens.forEach((token, index) => {
    if (token.node.kind !== 'repeat') return;
    let chain = 1;
    for (let previous = index - 1; previous >= 0; previous--) {
      const earlier = tokens[previous]!;
      if (earlier.node.kind !== 'repeat' || token.repeats.has(earlier.node)) continue;
      const reach = consumedChars(earlier.node);
      if ((firstChars(token.node) & reach) === 0n) continue;
      const blocked = tokens
        .slice(previous + 1, index)
        .some(
          (between) =>
            between.node.kind === 'set' &&
            !between.repeats.has(earlier.node) &&
            [...between.optional].every((construct) => token.optional.has(construct)) &&
            (between.node.set & reach) === 0n,
        );
      if (!blocked) chain = Math.max(chain, (chains.get(earlier) ?? 1) + 1);
    }
    chains.set(token, chain);
    best = Math.max(best, chain);
  });
  return best;
}

function collectTokens(
  node: PatternNode,
  optional: ReadonlySet<PatternNode>,
  repeats: ReadonlySet<PatternNode>,
  tokens: Token[],
): void {
  switch (node.kind) {
    case 'set':
      tokens.push({ node, optional, repeats });
      return;
    case 'assertion':
      return;
    case 'sequence':
      for (const item of node.items) collectTokens(item, optional, repeats, tokens);
      return;
    case 'alternation':
      for (const option of node.options) {
        collectTokens(option, new Set([...optional, option]), repeats, tokens);
      }
      return;
    case 'lookaround':
      collectTokens(node.body, new Set([...optional, node]), repeats, tokens);
      return;
    case 'repeat': {
      const inner = node.min === 0 ? new Set([...optional, node]) : optional;
      if (node.max > SMALL_REPEAT) {
        tokens.push({ node, optional, repeats });
        collectTokens(node.body, inner, new Set([...repeats, node]), tokens);
      } else {
        collectTokens(node.body, inner, repeats, tokens);
      }
      return;
    }
  }
}

/** The items of a sequence with plain groups inlined. */
function flattenSequence(node: PatternNode): PatternNode[] {
  if (node.kind !== 'sequence') return [node];
  return node.items.flatMap((item) => (item.kind === 'sequence' ? flattenSequence(item) : [item]));
}

/** Whether every match must start at the beginning of the input (`^` first). */
function isAnchored(node: PatternNode, source: string): boolean {
  if (node.kind === 'alternation')
    return node.options.every((option) => isAnchored(option, source));
  const first = flattenSequence(node)[0];
  if (first === undefined) return false;
  if (first.kind === 'alternation') return isAnchored(first, source);
  return first.kind === 'assertion' && source[first.start] === '^';
}

function findRisk(node: PatternNode, source: string): BacktrackingRisk | undefined {
  // every node is visited once; the recursion depth is bounded by the pattern's nesting, and
  // patterns are at most limits.maxPatternLength characters
  switch (node.kind) {
    case 'set':
    case 'assertion':
      return undefined;
    case 'sequence':
      for (const item of node.items) {
        const risk = findRisk(item, source);
        if (risk !== undefined) return risk;
      }
      return undefined;
    case 'alternation':
      for (const option of node.options) {
        const risk = findRisk(option, source);
        if (risk !== undefined) return risk;
      }
      return undefined;
    case 'lookaround':
      return findRisk(node.body, source);
    case 'repeat': {
      const risk = node.max > 1 ? findRepeatRisk(node, source) : undefined;
      return risk ?? findRisk(node.body, source);
    }
  }
}

function findRepeatRisk(repeat: RepeatNode, source: string): BacktrackingRisk | undefined {
  const construct = source.slice(repeat.start, repeat.end);
  const body = unwrap(repeat.body);

  if (body.kind === 'alternation') {
    for (let first = 0; first < body.options.length; first++) {
      for (let second = first + 1; second < body.options.length; second++) {
        const a = body.options[first]!;
        const b = body.options[second]!;
        if (nullable(a) || nullable(b) || (firstChars(a) & firstChars(b)) !== 0n) {
          return {
            construct,
            reason: `the repeated alternatives ${quote(source, a)} and ${quote(source, b)} can match the same text, so a long non-matching input is split in exponentially many ways; make the alternatives start differently`,
          };
        }
      }
    }
  }

  const inner = innerRepeats(repeat.body);
  if (inner.length > 0 && !isDelimited(repeat.body, inner)) {
    const bounded =
      Number.isFinite(repeat.max) && inner.every((nested) => Number.isFinite(nested.max));
    const paths = bounded
      ? inner.reduce((product, nested) => product * (nested.max + 1), 1) ** repeat.max
      : Number.POSITIVE_INFINITY;
    if (paths > BOUNDED_PATHS) {
      return {
        construct,
        reason: `the repeated group contains the repetition ${quote(source, inner[0]!)}, and nothing separates one iteration from the next, so a long non-matching input is split in exponentially many ways (nested quantifiers); remove the inner quantifier or start or end each iteration with a delimiter the inner part cannot match, e.g. "(-[a-z]+)*"`,
      };
    }
  }

  const ambiguousPair = findAdjacentOverlap(repeat.body);
  if (ambiguousPair !== undefined) {
    return {
      construct,
      reason: `inside the repeated group, ${quote(source, ambiguousPair[0])} and ${quote(source, ambiguousPair[1])} can match the same characters, and the ambiguity multiplies with every iteration; merge them into one quantifier`,
    };
  }
  return undefined;
}

/** A body whose iterations begin or end with a mandatory character no inner repetition takes. */
function isDelimited(body: PatternNode, inner: readonly RepeatNode[]): boolean {
  const repeated = inner.reduce((union, nested) => union | consumedChars(nested), 0n);
  const consuming = sequenceItems(body).filter(
    (item) => item.kind !== 'assertion' && item.kind !== 'lookaround',
  );
  const head = consuming[0];
  const tail = consuming[consuming.length - 1];
  return [head, tail].some(
    (item) => item !== undefined && item.kind === 'set' && (item.set & repeated) === 0n,
  );
}

/** Two repetitions in a row (only nullable items between) that can take the same characters. */
function findAdjacentOverlap(body: PatternNode): [PatternNode, PatternNode] | undefined {
  const items = sequenceItems(body);
  for (let index = 0; index < items.length; index++) {
    const first = items[index]!;
    if (first.kind !== 'repeat' || first.max <= 1) continue;
    for (let next = index + 1; next < items.length; next++) {
      const second = items[next]!;
      if (second.kind === 'repeat' && second.max > 1) {
        if ((consumedChars(first) & consumedChars(second)) !== 0n) return [first, second];
        break;
      }
      if (!nullable(second)) break;
    }
  }
  return undefined;
}

/** The items of a sequence, looking through plain groups. */
function sequenceItems(node: PatternNode): PatternNode[] {
  const unwrapped = unwrap(node);
  return unwrapped.kind === 'sequence' ? unwrapped.items : [unwrapped];
}

function unwrap(node: PatternNode): PatternNode {
  let current = node;
  while (current.kind === 'sequence' && current.items.length === 1) current = current.items[0]!;
  return current;
}

/** Repetitions with a choice of count (`a?`, `a+`, `a{1,3}`) anywhere inside `node`. */
function innerRepeats(node: PatternNode): RepeatNode[] {
  const found: RepeatNode[] = [];
  const stack = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    switch (current.kind) {
      case 'repeat':
        if (current.max > current.min) found.push(current);
        stack.push(current.body);
        break;
      case 'sequence':
        stack.push(...current.items);
        break;
      case 'alternation':
        stack.push(...current.options);
        break;
      case 'lookaround':
        break;
      default:
        break;
    }
  }
  return found;
}

function nullable(node: PatternNode): boolean {
  switch (node.kind) {
    case 'set':
      return false;
    case 'sequence':
      return node.items.every(nullable);
    case 'alternation':
      return node.options.some(nullable);
    case 'repeat':
      return node.min === 0 || nullable(node.body);
    default:
      return true;
  }
}

/** Characters a match of `node` can start with. */
function firstChars(node: PatternNode): CharSet {
  switch (node.kind) {
    case 'set':
      return node.set;
    case 'sequence': {
      let union = 0n;
      for (const item of node.items) {
        union |= firstChars(item);
        if (!nullable(item)) break;
      }
      return union;
    }
    case 'alternation':
      return node.options.reduce((union, option) => union | firstChars(option), 0n);
    case 'repeat':
      return firstChars(node.body);
    default:
      return 0n;
  }
}

/** Every character a match of `node` can consume. */
function consumedChars(node: PatternNode): CharSet {
  switch (node.kind) {
    case 'set':
      return node.set;
    case 'sequence':
      return node.items.reduce((union, item) => union | consumedChars(item), 0n);
    case 'alternation':
      return node.options.reduce((union, option) => union | consumedChars(option), 0n);
    case 'repeat':
      return consumedChars(node.body);
    default:
      return 0n;
  }
}

function quote(source: string, node: PatternNode): string {
  return JSON.stringify(source.slice(node.start, node.end));
}

/** The set of sample characters the single-character regex `atom` matches. */
function charSetOf(atom: string): CharSet {
  const cached = setCache.get(atom);
  if (cached !== undefined) return cached;
  let set = 0n;
  try {
    const regex = new RegExp(`^(?:${atom})$`, 'u');
    SAMPLE.forEach((character, index) => {
      if (regex.test(character)) set |= 1n << BigInt(index);
    });
  } catch {
    set = ANY;
  }
  if (setCache.size < 10_000) setCache.set(atom, set);
  return set;
}

/**
 * A recursive-descent parser for the structure of a `u`-flag regex: characters and classes
 * become sets, groups and alternations nest, quantifiers wrap the atom before them. The source
 * already compiled with `new RegExp(source, "u")`, so only valid syntax needs handling.
 */
class PatternParser {
  #index = 0;
  readonly #source: string;

  constructor(source: string) {
    this.#source = source;
  }

  parse(): PatternNode {
    const node = this.#alternation();
    if (this.#index < this.#source.length) throw new Error('unbalanced parenthesis');
    return node;
  }

  #alternation(): PatternNode {
    const start = this.#index;
    const options = [this.#sequence()];
    while (this.#source[this.#index] === '|') {
      this.#index++;
      options.push(this.#sequence());
    }
    return options.length === 1
      ? options[0]!
      : { kind: 'alternation', options, start, end: this.#index };
  }

  #sequence(): PatternNode {
    const start = this.#index;
    const items: PatternNode[] = [];
    while (this.#index < this.#source.length) {
      const character = this.#source[this.#index];
      if (character === '|' || character === ')') break;
      items.push(this.#quantified());
    }
    return { kind: 'sequence', items, start, end: this.#index };
  }

  #quantified(): PatternNode {
    const start = this.#index;
    const atom = this.#atom();
    const bounds = this.#quantifier();
    if (bounds === undefined) return atom;
    if (this.#source[this.#index] === '?') this.#index++; // lazy: same paths, other order
    return { kind: 'repeat', body: atom, ...bounds, start, end: this.#index };
  }

  #quantifier(): { min: number; max: number } | undefined {
    const character = this.#source[this.#index];
    if (character === '*' || character === '+' || character === '?') {
      this.#index++;
      return {
        min: character === '+' ? 1 : 0,
        max: character === '?' ? 1 : Number.POSITIVE_INFINITY,
      };
    }
    if (character !== '{') return undefined;
    const match = /^\{(\d+)(,(\d*))?\}/.exec(this.#source.slice(this.#index, this.#index + 40));
    if (match === null) throw new Error('invalid quantifier');
    this.#index += match[0].length;
    const min = Number(match[1]);
    const max =
      match[2] === undefined ? min : match[3] === '' ? Number.POSITIVE_INFINITY : Number(match[3]);
    return { min, max };
  }

  #atom(): PatternNode {
    const start = this.#index;
    const character = this.#source[this.#index]!;
    switch (character) {
      case '(':
        return this.#group();
      case '[':
        return this.#set(this.#classEnd(), start);
      case '^':
      case '$':
        this.#index++;
        return { kind: 'assertion', start, end: this.#index };
      case '\\':
        return this.#escape();
      default: {
        // one code point (a surrogate pair is one character under the u flag)
        const codePoint = this.#source.codePointAt(this.#index)!;
        return this.#set(this.#index + (codePoint > 0xffff ? 2 : 1), start);
      }
    }
  }

  #set(end: number, start: number): PatternNode {
    this.#index = end;
    return { kind: 'set', set: charSetOf(this.#source.slice(start, end)), start, end };
  }

  #classEnd(): number {
    let index = this.#index + 1;
    while (index < this.#source.length && this.#source[index] !== ']') {
      index += this.#source[index] === '\\' ? 2 : 1;
    }
    if (index >= this.#source.length) throw new Error('unterminated class');
    return index + 1;
  }

  #escape(): PatternNode {
    const start = this.#index;
    const next = this.#source[this.#index + 1];
    if (next === undefined) throw new Error('trailing backslash');
    if (next === 'b' || next === 'B') {
      this.#index += 2;
      return { kind: 'assertion', start, end: this.#index };
    }
    if (/[1-9]/.test(next) || next === 'k') {
      // a backreference repeats earlier text: treat it as any characters
      const match = /^\\(\d+|k<[^>]*>)/.exec(this.#source.slice(this.#index));
      this.#index += match?.[0].length ?? 2;
      const any: PatternNode = { kind: 'set', set: ANY, start, end: this.#index };
      return {
        kind: 'repeat',
        body: any,
        min: 0,
        max: Number.POSITIVE_INFINITY,
        start,
        end: this.#index,
      };
    }
    let end = this.#index + 2;
    if ((next === 'u' || next === 'p' || next === 'P') && this.#source[end] === '{') {
      const close = this.#source.indexOf('}', end);
      if (close === -1) throw new Error('unterminated escape');
      end = close + 1;
    } else if (next === 'u') {
      end += 4;
    } else if (next === 'x') {
      end += 2;
    } else if (next === 'c') {
      end += 1;
    }
    return this.#set(end, start);
  }

  #group(): PatternNode {
    const start = this.#index;
    this.#index++;
    let lookaround = false;
    if (this.#source[this.#index] === '?') {
      const rest = this.#source.slice(this.#index, this.#index + 4);
      if (rest.startsWith('?:')) this.#index += 2;
      else if (rest.startsWith('?=') || rest.startsWith('?!')) {
        this.#index += 2;
        lookaround = true;
      } else if (rest.startsWith('?<=') || rest.startsWith('?<!')) {
        this.#index += 3;
        lookaround = true;
      } else if (rest.startsWith('?<')) {
        const close = this.#source.indexOf('>', this.#index);
        if (close === -1) throw new Error('unterminated group name');
        this.#index = close + 1;
      } else {
        throw new Error('unsupported group');
      }
    }
    const body = this.#alternation();
    if (this.#source[this.#index] !== ')') throw new Error('unterminated group');
    this.#index++;
    if (lookaround) return { kind: 'lookaround', body, start, end: this.#index };
    return { kind: 'sequence', items: [body], start, end: this.#index };
  }
}
