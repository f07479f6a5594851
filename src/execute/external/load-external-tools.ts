import type { LoadLimits } from '../../format/limits.js';
import { displayPath } from '../../load/display-path.js';
import { RegistryLoadError } from '../../load/registry-load-error.js';
import { validateGroupDocument } from '../../load/validate-group-file.js';
import { registerGroup } from '../../registry/register-group.js';
import { type RegistrySnapshot, withDiagnostics } from '../../registry/registry-snapshot.js';
import {
  type DiscoverExternalToolsOptions,
  type DiscoveredExternalTool,
  discoverExternalTools,
} from './discover-external-tools.js';

/** The group external tools join unless told otherwise. */
export const DEFAULT_EXTERNAL_GROUP = 'external';
/** The executor name recorded on external tools (they run their `command`, not a handler). */
export const EXTERNAL_EXECUTOR = 'external';

/** Options of `loadExternalTools`. */
export interface LoadExternalToolsOptions extends DiscoverExternalToolsOptions {
  /** Group name for the discovered tools. Default `external`. */
  group?: string;
}

/**
 * Discovers the external `--schema` tools in `options.dirs` and returns a NEW snapshot with
 * them registered as one group (default `external`, strategy `always`). Invalid, failing or
 * conflicting executables are skipped; every reason becomes a diagnostic on the returned
 * snapshot, which is otherwise `snapshot` unchanged. Never throws for a bad tool.
 */
export async function addExternalTools(
  snapshot: RegistrySnapshot,
  options: LoadExternalToolsOptions,
  limits: LoadLimits,
): Promise<RegistrySnapshot> {
  const groupName = options.group ?? DEFAULT_EXTERNAL_GROUP;
  const cwd = options.cwd ?? process.cwd();
  const { tools, diagnostics } = await discoverExternalTools(options);
  const accepted: { tool: DiscoveredExternalTool; entry: Record<string, unknown> }[] = [];
  const seen = new Map<string, string>();
  for (const tool of tools) {
    const file = displayPath(tool.command, cwd);
    const owner = snapshot.toolsByName.get(tool.name);
    const earlier = seen.get(tool.name);
    if ((owner !== undefined && owner.source !== 'fallback') || earlier !== undefined) {
      diagnostics.push({
        severity: 'error',
        code: 'DUPLICATE_TOOL',
        file,
        pointer: '/name',
        message: `tool "${tool.name}" is already defined ${earlier !== undefined ? `by ${earlier}` : `by group "${owner?.group}"`}; tool names must be unique, so this executable is not registered`,
      });
      continue;
    }
    const entry = toGroupEntry(tool);
    const validation = validateGroupDocument(groupDocument(groupName, options, [entry]), {
      limits,
    });
    const problems = validation.problems.filter((problem) => problem.pointer.startsWith('/tools/'));
    for (const problem of problems) {
      diagnostics.push({
        severity: problem.severity,
        code: problem.code,
        file,
        pointer: problem.pointer.replace(/^\/tools\/0(\/input_schema)?/, (_match, schema) =>
          schema === undefined ? '' : '/parameters',
        ),
        message: `${problem.message}${problem.severity === 'error' ? '; the tool is not registered' : ''}`,
      });
    }
    if (problems.some((problem) => problem.severity === 'error')) continue;
    seen.set(tool.name, file);
    accepted.push({ tool, entry });
  }
  if (accepted.length === 0) return withDiagnostics(snapshot, diagnostics);

  try {
    const next = registerGroup(
      snapshot,
      groupDocument(
        groupName,
        options,
        accepted.map(({ entry }) => entry),
      ),
      {
        limits,
        source: 'external',
        commands: new Map(accepted.map(({ tool }) => [tool.name, tool.command])),
        label: '<external>',
      },
    );
    return withDiagnostics(next, diagnostics);
  } catch (error) {
    if (!(error instanceof RegistryLoadError)) throw error;
    return withDiagnostics(snapshot, [
      ...diagnostics,
      ...error.diagnostics.map((diagnostic) => ({
        ...diagnostic,
        message: `external tool group "${groupName}": ${diagnostic.message}`,
      })),
    ]);
  }
}

function toGroupEntry(tool: DiscoveredExternalTool): Record<string, unknown> {
  return {
    name: tool.name,
    description: tool.description,
    // nothing is known about side effects: the conservative choice for MCP hints
    category: 'mutation',
    input_schema: tool.parameters,
    metadata: {
      executor: EXTERNAL_EXECUTOR,
      requires_context: [],
      cost_estimate: 'medium',
      latency_estimate: 'medium',
    },
  };
}

function groupDocument(
  group: string,
  options: LoadExternalToolsOptions,
  tools: readonly Record<string, unknown>[],
): Record<string, unknown> {
  return {
    group,
    version: '0.0.0',
    description: `External tools discovered with --schema in ${options.dirs.join(', ')}`,
    selection: { strategy: 'always' },
    tools,
  };
}
