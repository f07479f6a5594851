import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { vi } from 'vitest';

/**
 * Replaces every way Node opens a connection or resolves a name (fetch, http(s).request/get,
 * net/tls connect, Socket#connect, dns) with a stub that records the attempt and throws.
 * Returns the recorded attempts; `vi.restoreAllMocks()` undoes it.
 */
export function guardNetwork(): string[] {
  const attempts: string[] = [];
  const refuse =
    (what: string) =>
    (...args: unknown[]): never => {
      attempts.push(`${what} ${describe(args[0])}`);
      throw new Error(`network access attempted: ${what}`);
    };
  vi.spyOn(globalThis, 'fetch').mockImplementation(refuse('fetch'));
  for (const [name, module] of [
    ['http', http],
    ['https', https],
  ] as const) {
    vi.spyOn(module, 'request').mockImplementation(refuse(`${name}.request`) as never);
    vi.spyOn(module, 'get').mockImplementation(refuse(`${name}.get`) as never);
  }
  vi.spyOn(net, 'connect').mockImplementation(refuse('net.connect') as never);
  vi.spyOn(net, 'createConnection').mockImplementation(refuse('net.createConnection') as never);
  vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(
    refuse('net.Socket#connect') as never,
  );
  vi.spyOn(tls, 'connect').mockImplementation(refuse('tls.connect') as never);
  vi.spyOn(dns, 'lookup').mockImplementation(refuse('dns.lookup') as never);
  vi.spyOn(dns.promises, 'lookup').mockImplementation(refuse('dns.promises.lookup') as never);
  return attempts;
}

function describe(target: unknown): string {
  if (typeof target === 'string') return target;
  if (target instanceof URL) return target.href;
  try {
    return JSON.stringify(target) ?? String(target);
  } catch {
    return String(target);
  }
}
