import { type Agent, request as httpRequest } from 'node:http';

/** What a raw HTTP request got back. */
export interface RawAnswer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/** The headers of an MCP Streamable HTTP POST. */
export const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/**
 * One HTTP request outside any MCP client, so tests can send what a client never would and see
 * status codes and headers. `agent`: an Agent keeps its connection open between requests
 * (keep-alive); false opens a new connection.
 */
export function rawHttpRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    agent?: Agent | false;
  },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: options.method ?? 'POST',
        headers: options.headers ?? {},
        ...(options.agent === undefined ? {} : { agent: options.agent }),
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
