import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers of ARCHITECTURE.md, bottom to top. A module may import from its own folder and
 * from folders of lower layers, never from another folder of its layer or from above.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors'],
  ['util'],
  ['format', 'text'],
  ['embeddings'],
  ['json-schema'],
  ['load'],
  ['registry'],
  ['select', 'providers'],
  ['execute'],
  ['migrate'],
  ['toolcap'],
  ['watch'],
  ['mcp', 'adapters'],
  ['cli'],
  ['index.ts', 'entries'],
];

const SRC = resolve('src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Relative imports of a file (static, dynamic and re-exports), as absolute .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const targets: string[] = [];
  for (const match of text.matchAll(
    /(?:\bfrom|\bimport\s*\(|^\s*import)\s*['"](\.{1,2}\/[^'"]+)['"]/gm,
  )) {
    targets.push(resolve(dirname(file), match[1]!).replace(/\.js$/, '.ts'));
  }
  return targets;
}

/** The top folder of a source file (`select`), or the file name for top-level files. */
function folderOf(file: string): string {
  return relative(SRC, file).split('/')[0]!;
}

function layerOf(folder: string): number {
  return LAYERS.findIndex((layer) => layer.includes(folder));
}

/** Import edges that run against the layer order, as readable strings. */
function layerViolations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    for (const target of targets) {
      const to = folderOf(target);
      if (from === to) continue;
      if (layerOf(to) >= layerOf(from)) {
        violations.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
      }
    }
  }
  return violations;
}

/** Every cycle found by a depth-first search, each as the files around it. */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'active' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'active');
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      const seen = state.get(target);
      if (seen === 'active') {
        cycles.push(stack.slice(stack.indexOf(target)).map((path) => relative(SRC, path)));
      } else if (seen === undefined) {
        visit(target);
      }
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file)]));

describe('src/ layering (ARCHITECTURE.md)', () => {
  it('places every folder of src/ in a layer', () => {
    const folders = new Set([...graph.keys()].map(folderOf));
    expect([...folders].filter((folder) => layerOf(folder) < 0)).toEqual([]);
  });

  it('has no import against the layer order', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('catches an upward import and a cycle (the checks can fail)', () => {
    const registry = join(SRC, 'registry/registry-snapshot.ts');
    const select = join(SRC, 'select/select-tools.ts');
    const upward = new Map([
      [registry, [select]],
      [select, [registry]],
    ]);
    expect(layerViolations(upward)).toEqual([
      'registry/registry-snapshot.ts → select/select-tools.ts',
    ]);
    expect(importCycles(upward)).toHaveLength(1);
  });
});
