import { describe, expect, it } from 'vitest';
import {
  describeInvalidResponse,
  UpstreamReadBuffer,
  unreadableAnswer,
} from '../../src/mcp/gateway/upstream-read-buffer.js';

function read(lines: readonly string[], maxBytes = 1024) {
  const problems: string[] = [];
  const buffer = new UpstreamReadBuffer(maxBytes, (problem) => problems.push(problem));
  // in uneven chunks, as a pipe delivers them
  const bytes = Buffer.from(lines.map((line) => `${line}\n`).join(''));
  for (let start = 0; start < bytes.length; start += 700) {
    buffer.append(bytes.subarray(start, start + 700));
  }
  const messages: unknown[] = [];
  for (let message = buffer.readMessage(); message !== null; message = buffer.readMessage()) {
    messages.push(message);
  }
  return { messages, problems };
}

describe('UpstreamReadBuffer', () => {
  it('reads JSON-RPC messages as the SDK does, CRLF and blank lines included', () => {
    const { messages, problems } = read([
      '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}\r',
      '',
      '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}',
    ]);
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [] } },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
    ]);
    expect(problems).toEqual([]);
  });

  it('turns a response over the limit into an error for its request, its id read at either end', () => {
    const big = 'x'.repeat(2000);
    const idLast = `{"jsonrpc":"2.0","result":{"text":"${big}"},"id":7}`;
    const bytes = Buffer.byteLength(idLast);
    const { messages, problems } = read([
      `{"jsonrpc":"2.0","id":"first","result":{"text":"${big}"}}`,
      idLast,
    ]);
    expect(messages).toHaveLength(2);
    const [first, last] = messages as { id: unknown; error: { message: string; data: unknown } }[];
    expect(first?.id).toBe('first');
    expect(last?.id).toBe(7);
    expect(last?.error.message).toBe(
      `the answer is ${bytes} bytes, more than the gateway's limit of 1024 bytes for a message from an upstream server; it was not read (raise the limit with maxUpstreamMessageBytes, --max-upstream-message-bytes on the command line)`,
    );
    expect(unreadableAnswer(last?.error)).toEqual({ kind: 'too-large', bytes, limit: 1024 });
    expect(problems).toEqual([]);
  });

  it("never answers a server's own request or notification over the limit: it is dropped and reported", () => {
    const big = 'x'.repeat(2000);
    const request = `{"jsonrpc":"2.0","method":"sampling/createMessage","id":3,"params":{"text":"${big}"}}`;
    const { messages, problems } = read([request]);
    expect(messages).toEqual([]);
    expect(problems).toEqual([
      `a message of ${Buffer.byteLength(request)} bytes on its stdout, more than the limit of 1024 bytes, was dropped unread; it showed no response id at either end, so a call waiting for it ends at its time limit`,
    ]);
  });

  it('turns a response the schema rejects into an error for its request, saying why', () => {
    const { messages } = read([
      '{"jsonrpc":"2.0","id":1,"result":null}',
      '{"jsonrpc":"2.0","id":2,"result":[1]}',
      '{"jsonrpc":"2.0","id":3,"error":"boom"}',
      '{"jsonrpc":"2.0","id":4,"result":{},"error":{"code":1,"message":"m"}}',
      '{"jsonrpc":"1.0","id":5,"result":{}}',
      '{"jsonrpc":"2.0","id":6}',
    ]);
    const problems = (messages as { id: unknown; error: unknown }[]).map((message) => [
      message.id,
      (unreadableAnswer(message.error) as { problem: string }).problem,
    ]);
    expect(problems).toEqual([
      [1, 'its "result" is null, not an object'],
      [2, 'its "result" is a list of 1, not an object'],
      [3, 'its "error" is "boom", not an object with an integer "code" and a string "message"'],
      [4, 'it has both "result" and "error"'],
      [5, 'its "jsonrpc" is "1.0", not "2.0"'],
      [6, 'it has neither "result" nor "error"'],
    ]);
  });

  it('a server-sent error with the same code and data is no unreadable answer', () => {
    const { messages } = read([
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"m","data":{"kind":"invalid","problem":"p"}}}',
    ]);
    expect(unreadableAnswer((messages[0] as { error: unknown }).error)).toBeUndefined();
  });
});

describe('describeInvalidResponse', () => {
  it('says a missing "jsonrpc" is missing', () => {
    expect(describeInvalidResponse({ id: 1, result: {} })).toBe(
      'its "jsonrpc" is missing, not "2.0"',
    );
  });
});
