import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  checkJsonRpcMessage,
  sniffRequestId,
} from '../../src/mcp/gateway/check-json-rpc-message.js';

const request = (params: unknown, method = 'tools/call', id: unknown = 7) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});

describe('checkJsonRpcMessage', () => {
  it.each([
    [[request({ name: 'x' })], -32600, null, 'batches (arrays) are not supported'],
    ['text', -32600, null, 'a message must be a JSON object, got a string'],
    [{ jsonrpc: '1.0', id: 1, method: 'ping' }, -32600, 1, '"jsonrpc" must be "2.0"'],
    [
      { jsonrpc: '2.0', id: 1.5, method: 'ping' },
      -32600,
      null,
      '"id" must be a string or an integer',
    ],
    [{ jsonrpc: '2.0', id: 1, method: 3 }, -32600, 1, '"method" must be a string'],
    [{ ...request({ name: 'x' }), extra: true }, -32600, 7, 'unknown member "extra"'],
    [
      request('add'),
      -32602,
      7,
      '"params" of tools/call must be an object (MCP passes named parameters), got a string',
    ],
    [request([1, 2]), -32602, 7, 'got an array'],
    [request({ name: 'x', _meta: 'm' }), -32602, 7, 'params._meta must be an object, got a string'],
    [
      request({ name: 'x', _meta: { progressToken: 1.5 } }),
      -32602,
      7,
      'progressToken must be a string or an integer',
    ],
    [
      request({ arguments: {} }),
      -32602,
      7,
      "tools/call needs params.name, the tool's name (a non-empty string)",
    ],
    [request(undefined), -32602, 7, 'tools/call needs params'],
    [
      request({ cursor: 3 }, 'tools/list'),
      -32602,
      7,
      'params.cursor of tools/list must be a string',
    ],
    [
      request({ capabilities: {}, clientInfo: { name: 'c', version: '1' } }, 'initialize'),
      -32602,
      7,
      'initialize needs params.protocolVersion',
    ],
    [
      request(
        {
          protocolVersion: '2025-06-18',
          capabilities: [],
          clientInfo: { name: 'c', version: '1' },
        },
        'initialize',
      ),
      -32602,
      7,
      'initialize needs params.capabilities, an object',
    ],
    [
      request(
        { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c' } },
        'initialize',
      ),
      -32602,
      7,
      'initialize needs params.clientInfo',
    ],
    [
      request(
        {
          protocolVersion: '2025-06-18',
          capabilities: { experimental: { 'toolcap/context': { user: { id: 1 } } } },
          clientInfo: { name: 'c', version: '1' },
        },
        'initialize',
      ),
      -32602,
      7,
      'params.capabilities.experimental["toolcap/context"].user must be a string',
    ],
  ])('answers %j with error %i', (message, code, id, text) => {
    const check = checkJsonRpcMessage(message);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.reply).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
    expect(check.reply?.error.message).toContain(text);
  });

  it('drops broken notifications and responses without an answer', () => {
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: 'x' },
      { jsonrpc: '2.0', method: 'notifications/x', other: 1 },
      { jsonrpc: '2.0', id: 1 },
      { jsonrpc: '2.0', id: 1, result: 'x' },
    ]) {
      const check = checkJsonRpcMessage(message);
      expect(check).toMatchObject({ ok: false });
      expect(check.ok === false && check.reply).toBeUndefined();
    }
  });

  it('passes every message the SDK accepts, and only those (on these samples)', () => {
    const samples: unknown[] = [
      request({ name: 'x', arguments: { a: 1 } }),
      request({ name: 'x', _meta: { progressToken: 'p', 'toolcap/context': { user_id: 'u' } } }),
      request(undefined, 'tools/list'),
      request({}, 'ping', 'abc'),
      request(
        {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'c', version: '1' },
        },
        'initialize',
      ),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 3, result: {} },
      { jsonrpc: '2.0', id: 3, error: { code: -1, message: 'no' } },
      request('x'),
      { ...request({}), extra: 1 },
      { jsonrpc: '2.0', id: true, method: 'ping' },
    ];
    for (const sample of samples) {
      expect(checkJsonRpcMessage(sample).ok, JSON.stringify(sample)).toBe(
        JSONRPCMessageSchema.safeParse(sample).success,
      );
    }
    expect(checkJsonRpcMessage(request({ name: 'x' }))).toEqual({
      ok: true,
      kind: 'request',
      id: 7,
      method: 'tools/call',
    });
  });
});

describe('sniffRequestId', () => {
  it('finds a top-level id written first or last, and nothing nested', () => {
    expect(
      sniffRequestId('{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"x":"', ''),
    ).toBe(12);
    expect(
      sniffRequestId(
        '{"method":"tools/call","params":{"name":"a","arguments":{"t":"xx',
        'xxx"}},"jsonrpc":"2.0","id":"req-9"}',
      ),
    ).toBe('req-9');
    expect(sniffRequestId('{"method":"x","params":{"id":5,"t":"', 'yyy"}}')).toBeNull();
    expect(sniffRequestId('{"method":"x","params":{"t":"', 'yyy","id":5}}')).toBeNull();
  });
});
