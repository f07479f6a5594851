import { ToolcapError } from '../errors/toolcap-error.js';
import { formatDiagnostic } from '../format/format-diagnostic.js';
import type { Diagnostic } from '../format/types.js';

/** Thrown by `loadRegistry({ strict: true })` and `registry.register()` when there are errors. */
export class RegistryLoadError extends ToolcapError {
  /** Every diagnostic, errors and warnings. */
  readonly diagnostics: readonly Diagnostic[];

  constructor(summary: string, diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
    const shown = errors.slice(0, 20).map((diagnostic) => `  ${formatDiagnostic(diagnostic)}`);
    const more =
      errors.length > shown.length ? [`  ... and ${errors.length - shown.length} more`] : [];
    super(
      'REGISTRY_LOAD_FAILED',
      [`${summary} (${errors.length} error(s)):`, ...shown, ...more].join('\n'),
    );
    this.name = 'RegistryLoadError';
    this.diagnostics = diagnostics;
  }
}
