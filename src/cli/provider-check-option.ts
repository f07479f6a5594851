import { readFileSync } from 'node:fs';
import { ToolcapError } from '../errors/toolcap-error.js';
import type { Diagnostic, RegisteredTool, Warning } from '../format/types.js';
import { type JsonDocument, parseJsonDocument } from '../load/parse-json-document.js';
import { isProviderId, PROVIDER_IDS, type ProviderId } from '../providers/provider-types.js';
import { translate } from '../providers/translate.js';
import { suggestSimilar } from '../util/suggest-similar.js';
import { CliUsageError } from './cli-usage-error.js';
import { providerAlias } from './provider-alias.js';

/** Usage lines of `--provider` (toolcap validate). */
export const PROVIDER_CHECK_USAGE = `  --provider PROVIDER      also translate each tool for PROVIDER and report what it would
                           change or reject, at the tool's place in its file (repeatable or
                           comma-separated; all for every provider but canonical)`;

/**
 * The providers `--provider` names (`gemini` is google, `all` every provider), each once, in
 * the order given. An unknown name is a usage error with a suggestion.
 */
export function parseProviderList(given: readonly string[], command: string): ProviderId[] {
  const providers: ProviderId[] = [];
  const names = given
    .flatMap((list) => list.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (given.length > 0 && names.length === 0) {
    throw new CliUsageError(
      `--provider names no provider; give one of ${PROVIDER_IDS.join(', ')}, or all`,
      command,
    );
  }
  for (const name of names) {
    const id = providerAlias(name);
    const ids = id === 'all' ? PROVIDER_IDS.filter((provider) => provider !== 'canonical') : [id];
    for (const provider of ids) {
      if (!isProviderId(provider)) {
        const similar = suggestSimilar(provider, [...PROVIDER_IDS, 'gemini', 'all']);
        const hint = similar.length > 0 ? `; did you mean "${similar[0]}"?` : '';
        throw new CliUsageError(
          `unknown provider "${provider}"${hint} (providers: ${PROVIDER_IDS.join(', ')}, or all)`,
          command,
        );
      }
      if (!providers.includes(provider)) providers.push(provider);
    }
  }
  return providers;
}

/**
 * Translates every tool loaded from a group file, one at a time, for each provider, and
 * reports as diagnostics at the tool's place in its file what the translator changed or left
 * out (warnings) and what it cannot translate (errors). Catalog-wide notes such as
 * `TOO_MANY_TOOLS` are left out: selection decides how many tools a request carries.
 */
export function checkProviders(
  tools: readonly RegisteredTool[],
  providers: readonly ProviderId[],
  display: (file: string) => string,
): Diagnostic[] {
  const documents = new Map<string, JsonDocument | undefined>();
  const diagnostics: Diagnostic[] = [];
  for (const provider of providers) {
    for (const tool of tools) {
      if (tool.file === undefined) continue;
      const at = (
        pointer: string,
        severity: Diagnostic['severity'],
        code: string,
        message: string,
      ) => {
        const position = documentOf(documents, tool.file!)?.locate(pointer);
        diagnostics.push({
          severity,
          code,
          file: display(tool.file!),
          pointer,
          ...(position === undefined ? {} : { line: position.line, column: position.column }),
          message: `${provider}: tool "${tool.name}": ${message}`,
        });
      };
      try {
        for (const warning of translate([tool], provider).warnings) {
          // the diagnostic names the place in the file, so the schema-relative "(at …)" goes
          const message = warning.message.replace(/ \(at [^()]*\)$/, '');
          at(warningPointer(tool, warning), 'warning', warning.code, message);
        }
      } catch (error) {
        if (!ToolcapError.isInstance(error)) throw error;
        const pointer = (error as { pointer?: unknown }).pointer;
        at(
          `${tool.pointer ?? ''}${typeof pointer === 'string' ? `/input_schema${pointer}` : ''}`,
          'error',
          error.code,
          `${error.message.replace(`tool "${tool.name}": `, '')}; ${provider} cannot be sent this tool`,
        );
      }
    }
  }
  return diagnostics;
}

/** Where in the group file a translation warning points: the schema place, or the field. */
function warningPointer(tool: RegisteredTool, warning: Warning): string {
  const base = tool.pointer ?? '';
  if (warning.code === 'OUTPUT_SCHEMA_DROPPED')
    return `${base}/output_schema${warning.pointer ?? ''}`;
  if (warning.code === 'DESCRIPTION_TRUNCATED') return `${base}/description`;
  return warning.pointer === undefined ? base : `${base}/input_schema${warning.pointer}`;
}

/** The group file parsed for positions, once per file (undefined if it cannot be read now). */
function documentOf(
  documents: Map<string, JsonDocument | undefined>,
  file: string,
): JsonDocument | undefined {
  if (!documents.has(file)) {
    let document: JsonDocument | undefined;
    try {
      const parsed = parseJsonDocument(readFileSync(file, 'utf8'));
      if (parsed.ok) document = parsed.document;
    } catch {
      // the file changed or went away since it was loaded: report without a position
    }
    documents.set(file, document);
  }
  return documents.get(file);
}
