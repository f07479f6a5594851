import { abbreviatePointer } from './json-pointer.js';
import type { Diagnostic } from './types.js';

/**
 * Renders a diagnostic for humans: `file:line:column: error CODE message (at /pointer)`, a long
 * pointer abbreviated (the diagnostic's `pointer` stays exact, for --json).
 */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const position =
    diagnostic.line === undefined ? '' : `:${diagnostic.line}:${diagnostic.column ?? 1}`;
  const { pointer, message } = diagnostic;
  // a message that already says where (an external tool's --schema problems) is not repeated
  const where =
    pointer === '' || message.includes(`(at ${pointer})`)
      ? ''
      : ` (at ${abbreviatePointer(pointer)})`;
  return `${diagnostic.file}${position}: ${diagnostic.severity} ${diagnostic.code} ${message}${where}`;
}
