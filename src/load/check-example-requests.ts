import type { DiagnosticCode } from '../format/diagnostic-codes.js';
import type { LoadLimits } from '../format/limits.js';
import type { DiagnosticSeverity } from '../format/types.js';
import { quoteValue } from '../util/quote-value.js';

/** A problem in one tool's `example_requests`; `pointer` is absolute within the file. */
export interface ExampleRequestProblem {
  severity: DiagnosticSeverity;
  code: DiagnosticCode;
  pointer: string;
  message: string;
}

/** What `checkExampleRequests` keeps and what it found. */
export interface CheckedExampleRequests {
  /** The requests in file order without repeats: what the tool definition carries. */
  kept: readonly string[];
  problems: ExampleRequestProblem[];
}

const QUOTE_LIMIT = 60;

/** What the schema asks of an entry besides being a string (`"pattern": "\\S"`). */
const NON_SPACE = /\S/;

/**
 * The `example_requests` rules the JSON Schema cannot state with configurable limits: at most
 * `limits.maxExampleRequests` entries, each at most `limits.maxExampleRequestLength`
 * characters (errors), and no entry repeating an earlier one after normalization (a warning;
 * the repeat is left out of `kept`). It runs even when the JSON Schema rejected some entries,
 * so one pass reports every problem: entries that are not strings with a non-space character
 * are left to the schema's diagnostics and out of `kept`. `pointer` is the tool's
 * (`/tools/3`), `label` names it in messages (`tool "create_event"`).
 */
export function checkExampleRequests(
  requests: readonly unknown[],
  pointer: string,
  label: string,
  limits: Pick<LoadLimits, 'maxExampleRequests' | 'maxExampleRequestLength'>,
): CheckedExampleRequests {
  const problems: ExampleRequestProblem[] = [];
  const field = `${pointer}/example_requests`;
  if (requests.length > limits.maxExampleRequests) {
    problems.push({
      severity: 'error',
      code: 'TOO_MANY_EXAMPLE_REQUESTS',
      pointer: field,
      message: `${label}: example_requests has ${requests.length} entries, more than ${limits.maxExampleRequests} (limits.maxExampleRequests); keep the most varied ones`,
    });
  }
  const kept: string[] = [];
  const seen = new Map<string, number>();
  requests.forEach((request, index) => {
    if (typeof request !== 'string' || !NON_SPACE.test(request)) return;
    if (request.length > limits.maxExampleRequestLength) {
      problems.push({
        severity: 'error',
        code: 'INVALID_EXAMPLE_REQUEST',
        pointer: `${field}/${index}`,
        message: `${label}: example_requests/${index} is ${request.length} characters, longer than ${limits.maxExampleRequestLength} (limits.maxExampleRequestLength); shorten it to the part that says what the user wants`,
      });
    }
    const key = normalizeExampleRequest(request);
    const previous = seen.get(key);
    if (previous !== undefined) {
      problems.push({
        severity: 'warning',
        code: 'DUPLICATE_EXAMPLE_REQUEST',
        pointer: `${field}/${index}`,
        message: `${label}: example_requests/${index} ${quoteValue(request, QUOTE_LIMIT)} repeats example_requests/${previous} and is ignored; remove it`,
      });
      return;
    }
    seen.set(key, index);
    kept.push(request);
  });
  return { kept, problems };
}

/**
 * The form two example requests are compared in: Unicode-folded (NFKC), lowercase, with runs of
 * whitespace collapsed and the ends trimmed, so `Book a room` and ` book  a room` are the same.
 */
export function normalizeExampleRequest(request: string): string {
  return request.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}
