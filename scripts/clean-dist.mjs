#!/usr/bin/env node
// Removes dist/ before a build, so files of modules that were moved or deleted are never
// packed or imported from a stale build.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

rmSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'dist'), {
  recursive: true,
  force: true,
});
