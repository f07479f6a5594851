import { errorMessage } from './error-message.js';

const BODY_EXCERPT = 300;

/** An OpenAI-compatible endpoint: the URL to post to, and how messages show it. */
export interface OpenAICompatibleEndpoint {
  url: URL;
  /** Origin and path only: no user, password or query string (keys hide there too). */
  shown: string;
}

/**
 * `<baseURL>/<path>` (`baseURL` up to `/v1`), or the problem with `baseURL` for the caller's
 * error: it must be an http(s) URL without credentials.
 */
export function resolveOpenAICompatibleEndpoint(
  baseURL: string,
  path: string,
): OpenAICompatibleEndpoint | { problem: string } {
  let url: URL;
  try {
    url = new URL(baseURL);
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path}`;
  } catch {
    return {
      problem: `"baseURL" must be an http(s) URL such as "http://localhost:11434/v1", got ${JSON.stringify(baseURL)}`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: `"baseURL" must use http or https, got ${url.protocol}` };
  }
  if (url.username !== '' || url.password !== '') {
    return { problem: '"baseURL" must not hold a user or password; pass the key as "apiKey"' };
  }
  return { url, shown: `${url.origin}${url.pathname}` };
}

/** How one POST is made and how its failures are described. */
export interface OpenAICompatibleRequest {
  url: URL;
  body: unknown;
  apiKey?: string;
  headers?: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** The largest response body read; a larger one is a failure. Default: no limit. */
  maxResponseBytes?: number;
  signal?: AbortSignal;
  /** The caller's error for a problem (network, status, time limit); the key is redacted. */
  failed: (problem: string, cause?: unknown) => Error;
}

/**
 * POSTs `body` as JSON and returns the response text of a 2xx answer. Anything else throws
 * `failed(...)`: the HTTP status with the server's message, a network error with its code, or
 * the time limit. An abort of `signal` rejects with its reason. The API key goes in
 * `Authorization: Bearer`, and is replaced by `<apiKey>` in any text a server echoes.
 */
export async function postOpenAICompatible(request: OpenAICompatibleRequest): Promise<string> {
  const { apiKey, signal, timeoutMs } = request;
  const redact = (text: string) =>
    apiKey === undefined || apiKey === '' ? text : text.replaceAll(apiKey, '<apiKey>');
  const failed = (problem: string, cause?: unknown) => request.failed(redact(problem), cause);
  const headers: Record<string, string> = {
    ...request.headers,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(failed(`no response within ${timeoutMs} ms (timeoutMs)`)),
    timeoutMs,
  );
  const onAbort = () => controller.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let response: Response;
    let text: string | undefined;
    try {
      response = await fetch(request.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(request.body),
        signal: controller.signal,
      });
      text = await readBody(response, request.maxResponseBytes);
    } catch (error) {
      if (controller.signal.aborted) throw controller.signal.reason;
      throw failed(describeNetworkError(error), error);
    }
    if (text === undefined) {
      throw failed(`the response is larger than ${request.maxResponseBytes} bytes`);
    }
    if (!response.ok) {
      throw failed(
        `HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}: ${errorExcerpt(text)}`,
      );
    }
    return text;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The response body as text; undefined when it is larger than `limit` bytes. */
async function readBody(
  response: Response,
  limit: number | undefined,
): Promise<string | undefined> {
  if (limit === undefined || response.body === null) return response.text();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) {
      await response.body.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The server's error message (OpenAI's `{ error: { message } }`), or the body's start. */
export function errorExcerpt(text: string): string {
  let message = text;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string };
    const error = body?.error;
    if (typeof error === 'string') message = error;
    else if (typeof error?.message === 'string') message = error.message;
  } catch {
    // not JSON: the text itself
  }
  message = message.replace(/\s+/g, ' ').trim();
  if (message === '') return 'empty response body';
  return message.length > BODY_EXCERPT ? `${message.slice(0, BODY_EXCERPT)}…` : message;
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const code = (cause as { code?: unknown } | null)?.code;
  const detail = cause === undefined ? errorMessage(error) : errorMessage(cause);
  return `${typeof code === 'string' ? `${code}: ` : ''}${detail}; is the server running and the baseURL right?`;
}
