import { DIAGNOSTIC_CODES } from '../../src/format/diagnostic-codes.js';
import { TOOL_NAME_PATTERN } from '../../src/format/names.js';
import type { Diagnostic } from '../../src/format/types.js';
import type { Registry } from '../../src/toolcap/registry.js';

/**
 * Problems with the shape of a diagnostic: a catalogued code, a severity, a file, a JSON
 * pointer, a non-empty message and, when present, a 1-based line and column.
 */
export function diagnosticProblems(diagnostic: Diagnostic): string[] {
  const problems: string[] = [];
  const label = JSON.stringify(diagnostic).slice(0, 300);
  if (typeof diagnostic.code !== 'string' || !Object.hasOwn(DIAGNOSTIC_CODES, diagnostic.code)) {
    problems.push(`code not in DIAGNOSTIC_CODES: ${label}`);
  }
  if (diagnostic.severity !== 'error' && diagnostic.severity !== 'warning') {
    problems.push(`bad severity: ${label}`);
  }
  if (typeof diagnostic.file !== 'string' || diagnostic.file === '') {
    problems.push(`bad file: ${label}`);
  }
  if (
    typeof diagnostic.pointer !== 'string' ||
    (diagnostic.pointer !== '' && !diagnostic.pointer.startsWith('/'))
  ) {
    problems.push(`bad pointer: ${label}`);
  }
  if (typeof diagnostic.message !== 'string' || diagnostic.message.trim() === '') {
    problems.push(`empty message: ${label}`);
  }
  for (const field of ['line', 'column'] as const) {
    const value = diagnostic[field];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 1)) {
      problems.push(`bad ${field}: ${label}`);
    }
  }
  return problems;
}

/**
 * Problems with a loaded registry: every diagnostic well-formed, every tool valid, frozen, in
 * a listed group and found by name, and names inherited from `Object.prototype` not tools
 * unless a group defines them.
 */
export function registryProblems(registry: unknown): string[] {
  if (!isRegistry(registry)) return ['not a Registry'];
  const problems = registry.diagnostics.flatMap(diagnosticProblems);
  const groups = new Set(registry.groups().map((group) => group.group));
  const names = new Set<string>();
  for (const tool of registry.list()) {
    names.add(tool.name);
    if (!TOOL_NAME_PATTERN.test(tool.name)) problems.push(`invalid tool name ${tool.name}`);
    if (!groups.has(tool.group)) problems.push(`tool ${tool.name} in unlisted group ${tool.group}`);
    if (registry.get(tool.name) !== tool) problems.push(`get(${tool.name}) is another tool`);
    if (!Object.isFrozen(tool) || !Object.isFrozen(tool.input_schema)) {
      problems.push(`tool ${tool.name} is not frozen`);
    }
  }
  for (const name of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']) {
    if (!names.has(name) && registry.get(name) !== undefined) {
      problems.push(`get(${name}) returned something`);
    }
    if (!groups.has(name) && registry.group(name) !== undefined) {
      problems.push(`group(${name}) returned something`);
    }
  }
  return problems;
}

function isRegistry(value: unknown): value is Registry {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Registry).list === 'function' &&
    typeof (value as Registry).select === 'function' &&
    Array.isArray((value as Registry).diagnostics)
  );
}
