#!/usr/bin/env node
// Bundles the CLI (src/cli/bin.ts and the commands it imports lazily) into dist/cli/ with
// esbuild, so `toolcap` starts from a few files instead of ~150 ES modules (Node 20 spends
// ~0.7 ms loading each). The library build (tsc → dist/src) is unchanged; see README
// "Performance".
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist/cli');
rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: { toolcap: join(root, 'src/cli/bin.ts') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  // no source maps: they would point at src/*.ts, which the package does not ship
  sourcemap: false,
  logLevel: 'warning',
  // the MCP SDK is only imported by `toolcap mcp`, on demand; keep it a normal dependency
  external: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
  // bundled CommonJS dependencies (fast-glob, semver) call require() for Node built-ins
  banner: {
    js: "import { createRequire as __toolcapCreateRequire } from 'node:module'; const require = __toolcapCreateRequire(import.meta.url);",
  },
});
