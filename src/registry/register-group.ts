import { RegistryLoadError } from '../errors/registry-load-error.js';
import type { Diagnostic, RegisteredGroup, RegisteredTool } from '../format/types.js';
import { validateGroupDocument } from '../load/validate-group-file.js';
import { Registry } from '../toolcap/registry.js';

const REGISTER_LABEL = '<register>';

/**
 * Validates `group` exactly like a group file and returns a new registry with it added.
 * Throws a `RegistryLoadError` (with diagnostics) when the group is invalid, its name is
 * already registered, or one of its tool names is taken by another group. A JSON tool that
 * shares its name with a code-defined fallback tool replaces it, as at load time.
 */
export function registerGroup(registry: Registry, group: unknown): Registry {
  const validation = validateGroupDocument(group, {
    limits: registry.settings.limits,
    contextChecks: new Set(registry.settings.contextChecks.keys()),
  });
  const diagnostics: Diagnostic[] = validation.problems.map((problem) => ({
    ...problem,
    file: REGISTER_LABEL,
  }));
  const definition = validation.group;
  if (definition !== undefined) {
    const existing = registry.group(definition.group);
    if (existing !== undefined) {
      diagnostics.push({
        severity: 'error',
        code: 'DUPLICATE_GROUP',
        file: REGISTER_LABEL,
        pointer: '/group',
        message: `group "${definition.group}" is already registered (version ${existing.version}${existing.file === undefined ? '' : ` from ${existing.file}`}); register a different group name or load a new snapshot`,
      });
    }
    definition.tools.forEach((tool, index) => {
      const owner = registry.get(tool.name);
      if (owner !== undefined && owner.source !== 'fallback') {
        diagnostics.push({
          severity: 'error',
          code: 'DUPLICATE_TOOL',
          file: REGISTER_LABEL,
          pointer: `${validation.toolPointers[index] ?? `/tools/${index}`}/name`,
          message: `tool "${tool.name}" is already defined by group "${owner.group}"; tool names must be unique across groups`,
        });
      }
    });
  }
  const hasErrors = diagnostics.some((diagnostic) => diagnostic.severity === 'error');
  if (
    definition === undefined ||
    hasErrors ||
    validation.group?.tools.length !== (group as { tools?: unknown[] }).tools?.length
  ) {
    throw new RegistryLoadError('register() rejected the group', diagnostics);
  }

  const replaced = new Set(
    definition.tools.map((tool) => tool.name).filter((name) => registry.has(name)),
  );
  const kept = registry.list().filter((tool) => !replaced.has(tool.name));
  const tools: RegisteredTool[] = kept.map((tool, index) =>
    tool.index === index ? tool : Object.freeze({ ...tool, index }),
  );
  for (const [index, tool] of definition.tools.entries()) {
    tools.push(
      Object.freeze({
        ...tool,
        group: definition.group,
        version: definition.version,
        source: 'registered' as const,
        pointer: validation.toolPointers[index] ?? `/tools/${index}`,
        index: tools.length,
      }),
    );
  }
  const groups: RegisteredGroup[] = registry
    .groups()
    .map((existing) =>
      existing.tools.some((name) => replaced.has(name))
        ? Object.freeze({
            ...existing,
            tools: Object.freeze(existing.tools.filter((name) => !replaced.has(name))),
          })
        : existing,
    )
    .filter((existing) => existing.tools.length > 0 || existing.source !== 'fallback');
  groups.push(
    Object.freeze({
      group: definition.group,
      version: definition.version,
      description: definition.description,
      selection: definition.selection,
      source: 'registered' as const,
      tools: Object.freeze(definition.tools.map((tool) => tool.name)),
    }),
  );
  const migration = registry.migrationStatus();
  const implementations = new Map(registry.settings.fallbackImplementations);
  for (const name of replaced) implementations.delete(name);
  const newNames = definition.tools.map((tool) => tool.name).filter((name) => !replaced.has(name));
  return new Registry({
    tools,
    groups,
    diagnostics: [...registry.diagnostics, ...diagnostics],
    migration: {
      jsonOnly: Object.freeze([...migration.jsonOnly, ...newNames].sort()),
      fallbackOnly: Object.freeze(migration.fallbackOnly.filter((name) => !replaced.has(name))),
      both: Object.freeze([...migration.both, ...replaced].sort()),
    },
    settings: { ...registry.settings, fallbackImplementations: implementations },
  });
}
