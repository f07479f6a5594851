import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import type { Registry } from '../../src/toolcap/registry.js';

/** The repository root. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The bundled groups (schemas/) with the bundled handlers (handlers/) and a fresh data dir. */
export async function loadBundledRegistry(): Promise<{ registry: Registry; dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'toolcap-data-'));
  const registry = await loadRegistry({
    cwd: REPO_ROOT,
    dirs: ['schemas'],
    handlers: ['handlers'],
    dataDir,
  });
  return { registry, dataDir };
}

/** Unwraps an ok result or fails the test with the error. */
export function outputOf<T = Record<string, unknown>>(
  result: { ok: true; output: unknown } | { ok: false; error: { code: string; message: string } },
): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.output as T;
}
