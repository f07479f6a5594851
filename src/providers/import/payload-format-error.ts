import { TranslationError } from '../../errors/translation-error.js';

/** What `PayloadFormatError` says about the entry that gave the format away. */
export interface PayloadFormatMismatch {
  /** The format the list was read as (a provider id, or an import format such as `params`). */
  readAs: string;
  /** Where tools of `readAs` keep their parameters, e.g. `"input_schema"`. */
  readAsPlace: string;
  /** The formats that find this entry's parameters, best fit first (never empty). */
  fits: readonly string[];
  /** Where this entry keeps its parameters, e.g. `"inputSchema"`. */
  place: string;
  /** Index of the entry in the tool list. */
  index: number;
  /** The entry's tool name, when it has one where `readAs` looks. */
  toolName?: string | undefined;
}

/**
 * Thrown (code `INVALID_PAYLOAD`) when a tool list is read as one format but holds another's
 * tools: reading on would import them with no parameters. Names the formats that fit.
 */
export class PayloadFormatError extends TranslationError {
  /** The format the list was read as. */
  readonly readAs: string;
  /** The formats that find the entry's parameters, best fit first. */
  readonly fits: readonly string[];
  /** Where the entry keeps its parameters, and where `readAs` looks for them. */
  readonly place: string;
  readonly readAsPlace: string;
  /** Index of the entry that gave the format away. */
  readonly index: number;

  constructor(mismatch: PayloadFormatMismatch) {
    const [best, ...others] = mismatch.fits;
    const name = mismatch.toolName === undefined ? '' : ` (${JSON.stringify(mismatch.toolName)})`;
    const alternatives =
      others.length === 0 ? '' : ` (or ${others.map((fit) => `"${fit}"`).join(', ')})`;
    super(
      'INVALID_PAYLOAD',
      `entry ${mismatch.index}${name} is not ${article(mismatch.readAs)} ${mismatch.readAs} tool: its parameters are in ${mismatch.place}, where ${best} tools keep them (${mismatch.readAs} tools keep them in ${mismatch.readAsPlace}); import it as "${best}"${alternatives}`,
      mismatch.toolName === undefined ? {} : { tool: mismatch.toolName },
    );
    this.name = 'PayloadFormatError';
    this.readAs = mismatch.readAs;
    this.fits = mismatch.fits;
    this.place = mismatch.place;
    this.readAsPlace = mismatch.readAsPlace;
    this.index = mismatch.index;
  }
}

function article(word: string): string {
  return /^[aeiou]|^mcp/.test(word) ? 'an' : 'a';
}
