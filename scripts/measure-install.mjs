#!/usr/bin/env node
// `npm run size`: what a consumer installs. Packs this package, installs the tarball into an
// empty project (production dependencies, from the npm registry), and prints the size of its
// node_modules and the number of packages in it, next to the targets (90 MB, 130 packages).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'toolcap-size-'));
const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Bytes of the files under `dir` (the space the files take, not their blocks). */
function sizeOf(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += sizeOf(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** Packages in a node_modules tree: every folder holding a package.json, scoped ones included. */
function countPackages(dir) {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      count += countPackages(path);
      continue;
    }
    count++;
    const nested = join(path, 'node_modules');
    try {
      if (statSync(nested).isDirectory()) count += countPackages(nested);
    } catch {
      // no nested node_modules
    }
  }
  return count;
}

try {
  const [pack] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], root));
  const tarball = join(work, pack.filename);
  const app = join(work, 'app');
  execFileSync('mkdir', [app]);
  writeFileSync(join(app, 'package.json'), '{ "name": "size-check", "private": true }\n');
  run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', tarball], app);
  const modules = join(app, 'node_modules');
  const megabytes = sizeOf(modules) / 1e6;
  const packages = countPackages(modules);
  const ok = megabytes <= 90 && packages <= 130;
  console.log(
    `tarball            ${(pack.size / 1e6).toFixed(2)} MB packed, ${(pack.unpackedSize / 1e6).toFixed(2)} MB unpacked, ${pack.entryCount} files`,
  );
  console.log(`consumer install   ${megabytes.toFixed(1)} MB in node_modules (target ≤ 90 MB)`);
  console.log(`                   ${packages} packages (target ≤ 130)`);
  console.log(ok ? 'within the targets' : 'OVER a target');
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
