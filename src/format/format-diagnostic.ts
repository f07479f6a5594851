import type { Diagnostic } from './types.js';

/** Renders a diagnostic for humans: `file:line:column: error CODE message (at /pointer)`. */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const position =
    diagnostic.line === undefined ? '' : `:${diagnostic.line}:${diagnostic.column ?? 1}`;
  const where = diagnostic.pointer === '' ? '' : ` (at ${diagnostic.pointer})`;
  return `${diagnostic.file}${position}: ${diagnostic.severity} ${diagnostic.code} ${diagnostic.message}${where}`;
}
