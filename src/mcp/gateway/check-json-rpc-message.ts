import type { JSONRPCErrorResponse, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { readContext } from './session-context.js';

/** JSON-RPC error codes the gateway answers with. */
export const JSON_RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
} as const;

/** The verdict on one incoming message. */
export type MessageCheck =
  | { ok: true; kind: 'request'; id: RequestId; method: string }
  | { ok: true; kind: 'notification' | 'response' }
  | {
      ok: false;
      /** What to answer; absent for a broken notification or response (nothing answers those). */
      reply?: JSONRPCErrorResponse;
      problem: string;
    };

const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);
const RESPONSE_MEMBERS = new Set(['jsonrpc', 'id', 'result', 'error']);
const RELATED_TASK_KEY = 'io.modelcontextprotocol/related-task';

/**
 * Checks one incoming JSON-RPC message as strictly as the SDK's transports parse it, so that
 * every request the SDK would drop without a word gets an error answer instead: -32700 for
 * text that is not JSON, -32600 for a message that is no valid request, -32602 for `params`
 * that are not an object, a malformed `_meta`, or `initialize` / `tools/call` / `tools/list`
 * parameters of the wrong type. Messages that pass go to the SDK unchanged.
 */
export function checkJsonRpcMessage(value: unknown): MessageCheck {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return invalid(
      null,
      Array.isArray(value)
        ? 'a message must be one JSON object; batches (arrays) are not supported: send each message on its own'
        : `a message must be a JSON object, got ${describeType(value)}`,
    );
  }
  const message = value as Record<string, unknown>;
  const id = message.id;
  const hasId = Object.hasOwn(message, 'id');
  const idOk = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
  const replyId = idOk ? (id as RequestId) : null;
  if (message.jsonrpc !== '2.0') return invalid(replyId, '"jsonrpc" must be "2.0"');
  if (hasId && !idOk) return invalid(null, '"id" must be a string or an integer');

  if (!Object.hasOwn(message, 'method')) {
    // a response to one of the server's requests: nothing answers a broken one
    const unknown = Object.keys(message).find((key) => !RESPONSE_MEMBERS.has(key));
    const result = message.result;
    const resultOk = result !== null && typeof result === 'object' && !Array.isArray(result);
    const error = message.error as { code?: unknown; message?: unknown } | undefined;
    const errorOk =
      error !== null &&
      typeof error === 'object' &&
      Number.isInteger(error.code) &&
      typeof error.message === 'string';
    if (unknown !== undefined || (!resultOk && !errorOk) || (resultOk && !hasId)) {
      return {
        ok: false,
        problem: 'dropped a malformed response (neither a request nor a result)',
      };
    }
    return { ok: true, kind: 'response' };
  }

  const method = message.method;
  const unknown = Object.keys(message).find((key) => !REQUEST_MEMBERS.has(key));
  if (typeof method !== 'string' || unknown !== undefined) {
    const problem =
      typeof method !== 'string'
        ? '"method" must be a string'
        : `unknown member ${JSON.stringify(unknown)}; a request has only jsonrpc, id, method and params`;
    return hasId
      ? invalid(replyId, problem)
      : { ok: false, problem: `dropped a notification: ${problem}` };
  }
  const paramsProblem = checkParams(method, message.params, hasId);
  if (paramsProblem !== undefined) {
    return hasId
      ? {
          ok: false,
          reply: errorResponse(replyId, JSON_RPC_ERRORS.invalidParams, paramsProblem),
          problem: paramsProblem,
        }
      : { ok: false, problem: `dropped the notification ${method}: ${paramsProblem}` };
  }
  return hasId
    ? { ok: true, kind: 'request', id: id as RequestId, method }
    : { ok: true, kind: 'notification' };
}

/** A JSON-RPC error answer. */
export function errorResponse(
  id: RequestId | null,
  code: number,
  message: string,
): JSONRPCErrorResponse {
  // the SDK types the id as required; JSON-RPC answers null when the request's id is unknown
  return { jsonrpc: '2.0', id: id as RequestId, error: { code, message } };
}

/**
 * The `id` of a message too large to parse, read from its first or last bytes (SDK clients
 * write it last, others first), so the client can match the refusal to its request; null when
 * neither end shows a top-level `id`.
 */
export function sniffRequestId(head: string, tail: string): RequestId | null {
  const first =
    /^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,\s*)*"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,200}")\s*,/.exec(
      head,
    );
  // the top-level object's last member: one closing brace after it, then the end
  const last = /,\s*"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,200}")\s*\}\s*$/.exec(tail);
  const raw = first?.[1] ?? last?.[1];
  if (raw === undefined) return null;
  return raw.startsWith('"') ? raw.slice(1, -1) : Number(raw);
}

function checkParams(method: string, params: unknown, isRequest: boolean): string | undefined {
  if (params === undefined) {
    if (method === 'initialize')
      return 'initialize needs params: {protocolVersion, capabilities, clientInfo}';
    if (method === 'tools/call')
      return 'tools/call needs params: {"name": "<tool>", "arguments": {...}}';
    return undefined;
  }
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    return `"params" of ${method} must be an object (MCP passes named parameters), got ${describeType(params)}`;
  }
  const record = params as Record<string, unknown>;
  const meta = record._meta;
  if (meta !== undefined) {
    if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
      return `params._meta must be an object, got ${describeType(meta)}`;
    }
    const { progressToken } = meta as Record<string, unknown>;
    if (
      progressToken !== undefined &&
      typeof progressToken !== 'string' &&
      !(typeof progressToken === 'number' && Number.isInteger(progressToken))
    ) {
      return 'params._meta.progressToken must be a string or an integer';
    }
    const related = (meta as Record<string, unknown>)[RELATED_TASK_KEY] as
      | { taskId?: unknown }
      | undefined;
    if (
      related !== undefined &&
      (related === null || typeof related !== 'object' || typeof related.taskId !== 'string')
    ) {
      return `params._meta["${RELATED_TASK_KEY}"] must be {"taskId": "<string>"}`;
    }
  }
  if (!isRequest) return undefined;
  switch (method) {
    case 'initialize':
      return checkInitialize(record);
    case 'tools/call':
      if (typeof record.name !== 'string' || record.name === '') {
        return "tools/call needs params.name, the tool's name (a non-empty string)";
      }
      return undefined;
    case 'tools/list':
      if (record.cursor !== undefined && typeof record.cursor !== 'string') {
        return 'params.cursor of tools/list must be a string (the nextCursor of the previous page)';
      }
      return undefined;
    default:
      return undefined;
  }
}

function checkInitialize(params: Record<string, unknown>): string | undefined {
  if (typeof params.protocolVersion !== 'string') {
    return 'initialize needs params.protocolVersion, a string such as "2025-06-18"';
  }
  const capabilities = params.capabilities;
  if (capabilities === null || typeof capabilities !== 'object' || Array.isArray(capabilities)) {
    return 'initialize needs params.capabilities, an object ({} when the client offers none)';
  }
  const info = params.clientInfo as { name?: unknown; version?: unknown } | undefined;
  if (
    info === null ||
    typeof info !== 'object' ||
    typeof info.name !== 'string' ||
    typeof info.version !== 'string'
  ) {
    return 'initialize needs params.clientInfo: {"name": "<string>", "version": "<string>"}';
  }
  const experimental = (capabilities as { experimental?: unknown }).experimental;
  if (experimental !== undefined) {
    if (experimental === null || typeof experimental !== 'object' || Array.isArray(experimental)) {
      return 'params.capabilities.experimental must be an object';
    }
    const context = readContext(experimental, 'params.capabilities.experimental');
    if (!context.ok) return context.problem;
  }
  return undefined;
}

function invalid(id: RequestId | null, problem: string): MessageCheck {
  return { ok: false, reply: errorResponse(id, JSON_RPC_ERRORS.invalidRequest, problem), problem };
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  return `${/^[aeiou]/.test(typeof value) ? 'an' : 'a'} ${typeof value}`;
}
