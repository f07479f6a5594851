import { formatDiagnostic } from '../format/format-diagnostic.js';
import type { Diagnostic } from '../format/types.js';
import { type CliIo, createStyle, useColor } from './io.js';

/** Writes diagnostics to stderr, one per line, for commands whose data goes to stdout. */
export function printDiagnostics(io: CliIo, diagnostics: readonly Diagnostic[]): void {
  if (diagnostics.length === 0) return;
  const style = createStyle(useColor(io) && io.env.NO_COLOR === undefined);
  for (const diagnostic of diagnostics) {
    const line = formatDiagnostic(diagnostic);
    io.stderr(`${diagnostic.severity === 'error' ? style.red(line) : style.yellow(line)}\n`);
  }
}
