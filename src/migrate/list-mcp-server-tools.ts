import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** An MCP server object: the SDK's `McpServer` or its low-level `Server`. */
export interface McpServerLike {
  connect(transport: unknown): Promise<void>;
}

/** Whether `value` is an MCP SDK `McpServer` or `Server`, by shape (any copy of the SDK). */
export function isMcpServer(value: unknown): value is McpServerLike {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  if (typeof record.connect !== 'function') return false;
  const inner = record.server as Record<string, unknown> | null | undefined;
  return (
    typeof record.setRequestHandler === 'function' ||
    (inner !== null && typeof inner === 'object' && typeof inner.setRequestHandler === 'function')
  );
}

/**
 * The tools an MCP server lists (`tools/list`, every page), asked by an MCP SDK client over
 * the SDK's in-memory transport; the connection is closed afterwards. Rejects when the server
 * is already connected elsewhere or does not answer `tools/list`.
 */
export async function listMcpServerTools(server: McpServerLike): Promise<Tool[]> {
  const [{ Client }, { InMemoryTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/inMemory.js'),
  ]);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'toolcap-import', version: '1.0.0' });
  try {
    await client.connect(clientTransport);
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  } finally {
    await client.close();
  }
}
