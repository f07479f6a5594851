import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const built = existsSync(join(ROOT, 'dist/src/index.js'));

// These tests use the build output, as a user would; `npm test` builds first.
describe.runIf(built)('the published package', () => {
  it('imports by package name, prints nothing, and exposes the documented API', () => {
    const script = `
      const api = await import('tool-capabilities');
      const registry = await api.loadRegistry({ dirs: ['schemas'] });
      globalThis.report = JSON.stringify({ exports: Object.keys(api).sort(), tools: registry.size });
      process.on('exit', () => process.stderr.write(globalThis.report));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(child.status).toBe(0);
    // a library never prints: stdout stays empty (natural's index would print a dotenv banner)
    expect(child.stdout).toBe('');
    const result = JSON.parse(child.stderr) as { exports: string[]; tools: number };
    expect(result.tools).toBe(16);
    for (const name of [
      'loadRegistry',
      'createRegistry',
      'RegistryLoadError',
      'ToolcapError',
      'DIAGNOSTIC_CODES',
    ]) {
      expect(result.exports).toContain(name);
    }
  });

  it('ships only the build, the format schema, the user docs, the README and the license', () => {
    const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [pack] = JSON.parse(output) as [{ files: { path: string }[] }];
    const paths = pack.files.map((file) => file.path);
    expect(paths).toContain('dist/src/index.js');
    expect(paths).toContain('dist/src/index.d.ts');
    expect(paths).toContain('dist/cli/toolcap.mjs');
    expect(paths).toContain('schemas/tool-group.schema.json');
    expect(paths).toContain('README.md');
    expect(paths).toContain('LICENSE');
    // the CLI's help names guides by these paths, and the README links to the docs
    expect(paths).toContain('docs/guide/mcp.md');
    expect(paths).toContain('docs/reference/cli.md');
    expect(paths).toContain('docs/decisions/2026-11-25-performance.md');
    expect(paths.filter((path) => path.startsWith('test/') || path.startsWith('src/'))).toEqual([]);
    expect(paths.filter((path) => path.endsWith('_tools.json'))).toEqual([]);
    // source maps would point at src/*.ts, which is not shipped
    expect(paths.filter((path) => path.endsWith('.map'))).toEqual([]);
    const mapped = paths
      .filter((path) => /\.(m?js|d\.ts)$/.test(path))
      .filter((path) => readFileSync(join(ROOT, path), 'utf8').includes('sourceMappingURL='));
    expect(mapped).toEqual([]);
  });
});
