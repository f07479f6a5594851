import { describe, expect, it } from 'vitest';
import { createUpstreamFetch } from '../../src/mcp/gateway/upstream-http-fetch.js';
import { unreadableAnswer } from '../../src/mcp/gateway/upstream-read-buffer.js';

const CALL = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: {} });

/** A fetch answering every request with `chunks` as its body, as a server would send them. */
function answering(chunks: readonly string[], init: ResponseInit) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  return () => Promise.resolve(new Response(body, init));
}

const SSE_INIT = { status: 200, headers: { 'content-type': 'text/event-stream' } };

/** What the SDK would read through the filtering fetch. */
async function readThrough(
  chunks: readonly string[],
  init: ResponseInit = SSE_INIT,
  maxBytes = 200,
): Promise<{ text: string; problems: string[] }> {
  const problems: string[] = [];
  const fetchUpstream = createUpstreamFetch(
    maxBytes,
    (problem) => problems.push(problem),
    answering(chunks, init),
  );
  const response = await fetchUpstream('http://127.0.0.1/mcp', { method: 'POST', body: CALL });
  return { text: await response.text(), problems };
}

/** The `data` of each event in an SSE text, parsed. */
function eventData(text: string): unknown[] {
  return text
    .split('\n\n')
    .map((event) =>
      event
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data));
}

const ANSWER = '{"jsonrpc":"2.0","id":7,"result":{"content":[]}}';

describe('createUpstreamFetch on an SSE stream', () => {
  it('passes valid messages and event ids, whatever the line ends; leaves out comments', async () => {
    const { text, problems } = await readThrough([
      ': keep-alive\r\n\r\nid: 1\r\nretry: 50\r\n\r\n',
      // a CRLF split between chunks, then lone CRs
      `: note\revent: message\rdata: ${ANSWER}\r`,
      '\n\r',
      // an event the SDK skips
      'event: ping\ndata: hi\n\n',
    ]);
    expect(text).toBe(
      `id: 1\nretry: 50\n\nevent: message\ndata: ${ANSWER}\n\nevent: ping\ndata: hi\n\n`,
    );
    expect(problems).toEqual([]);
  });

  it('joins the data lines of an event, as the SDK does', async () => {
    const { text } = await readThrough([
      'data: {"jsonrpc":"2.0",\ndata:"id":7,\ndata: "result":{"content":[]}}\n\n',
    ]);
    expect(eventData(text)).toEqual([JSON.parse(ANSWER)]);
  });

  it('replaces an answer over the limit, even spread over many data lines, keeping its event id', async () => {
    const values = [
      '{"jsonrpc":"2.0","result":{"content":[',
      ...Array.from({ length: 40 }, () => '"x",'.repeat(5)),
      '"x"]},"id":7}',
    ];
    const { text } = await readThrough([
      'id: 9\n',
      ...values.map((value) => `data: ${value}\n`),
      '\n',
    ]);
    expect(text.startsWith('id: 9\ndata: ')).toBe(true);
    const [error] = eventData(text) as { id: number; error: unknown }[];
    expect(error?.id).toBe(7);
    // the size of the event's data: its lines joined with LF
    expect(unreadableAnswer(error?.error)).toEqual({
      kind: 'too-large',
      bytes: values.join('\n').length,
      limit: 200,
    });
  });

  it('replaces an invalid answer, and drops what answers no request', async () => {
    const { text, problems } = await readThrough([
      'data: {"jsonrpc":"2.0","id":7,"result":null}\n\n',
      'data: {"hello":1}\n\n',
      `event: other\ndata: ${'y'.repeat(300)}\n\n`,
    ]);
    const [error] = eventData(text) as { error: unknown }[];
    expect(unreadableAnswer(error?.error)).toEqual({
      kind: 'invalid',
      problem: 'its "result" is null, not an object',
    });
    expect(problems).toEqual([
      'a message on its SSE stream is not JSON-RPC, dropped: an object with the members "hello"',
      'an event of 300 bytes on its SSE stream, more than the limit of 200 bytes, was dropped unread',
    ]);
  });
});

describe('createUpstreamFetch on a JSON body', () => {
  const JSON_INIT = { status: 200, headers: { 'content-type': 'application/json' } };

  it('passes a valid answer, and replaces one over the limit or one that is no answer', async () => {
    expect((await readThrough([ANSWER], JSON_INIT)).text).toBe(ANSWER);
    const big = JSON.parse((await readThrough([ANSWER, ' '.repeat(300)], JSON_INIT)).text);
    expect(big.id).toBe(7);
    expect(unreadableAnswer(big.error)).toEqual({ kind: 'too-large', bytes: 348, limit: 200 });
    const declared = JSON.parse(
      (
        await readThrough([ANSWER], {
          ...JSON_INIT,
          headers: { ...JSON_INIT.headers, 'content-length': '5000' },
        })
      ).text,
    );
    expect(unreadableAnswer(declared.error)).toEqual({
      kind: 'too-large',
      bytes: 5000,
      limit: 200,
    });
    const garbage = JSON.parse((await readThrough(['<html>oops'], JSON_INIT)).text);
    expect(garbage.id).toBe(7);
    expect(unreadableAnswer(garbage.error)).toEqual({
      kind: 'invalid',
      problem: expect.stringMatching(/^it is not JSON \(.+\)$/),
    });
    const number = JSON.parse((await readThrough(['42'], JSON_INIT)).text);
    expect(unreadableAnswer(number.error)).toEqual({
      kind: 'invalid',
      problem: 'it is 42, not a JSON-RPC response',
    });
  });

  it('cuts the body of an error status at the limit', async () => {
    const { text } = await readThrough(['e'.repeat(150), 'e'.repeat(150)], { status: 500 });
    expect(text).toBe('e'.repeat(200));
  });
});
