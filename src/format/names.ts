/** Name rules shared by the loader, the translators and the importer. */

/** Tool names valid unchanged for OpenAI, Anthropic, Gemini and Bedrock. */
export const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** snake_case group names; the file is `<group>_tools.json`. */
export const GROUP_NAME_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** Executor (handler module) names: a plain identifier, never a path. */
export const EXECUTOR_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;

/** Suffix every group file name ends with. */
export const GROUP_FILE_SUFFIX = '_tools.json';

/** Whether `name` is a valid canonical tool name. */
export function isValidToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

/** Whether `name` is a valid group name: snake_case, at most 64 characters. */
export function isValidGroupName(name: string): boolean {
  return GROUP_NAME_PATTERN.test(name) && name.length <= 64;
}

/** Whether `name` is a valid executor name. */
export function isValidExecutorName(name: string): boolean {
  return EXECUTOR_NAME_PATTERN.test(name) && name.length <= 64;
}

/** The group name a file name implies: `calendar_tools.json` → `calendar`; otherwise undefined. */
export function groupNameFromFileName(fileName: string): string | undefined {
  if (!fileName.endsWith(GROUP_FILE_SUFFIX)) return undefined;
  const prefix = fileName.slice(0, -GROUP_FILE_SUFFIX.length);
  return prefix.length > 0 ? prefix : undefined;
}

const MAX_TAG_LENGTH = 64;
const MAX_TAG_COUNT = 20;
/** A tag that normalizing leaves unchanged. */
const NORMAL_TAG = /^[a-z0-9\-_.]{1,64}$/;

/**
 * Normalizes discovery tags: diacritics folded, lowercased and trimmed, whitespace collapsed
 * to `-`, only `[a-z0-9-_.]` kept, at most 64 characters and 20 tags, duplicates removed in
 * order. Empty results are dropped.
 */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const normalized: string[] = [];
  for (const tag of tags) {
    // most tags are already normal: keep them without building five intermediate strings
    const cleaned = NORMAL_TAG.test(tag)
      ? tag
      : tag
          .normalize('NFKD')
          // fold diacritics (é → e) before dropping what is not allowed
          .replace(/\p{M}+/gu, '')
          .trim()
          .toLowerCase()
          .replace(/\s+/g, '-')
          .replace(/[^a-z0-9\-_.]/g, '')
          .slice(0, MAX_TAG_LENGTH);
    if (cleaned === '' || seen.has(cleaned)) continue;
    seen.add(cleaned);
    normalized.push(cleaned);
    if (normalized.length === MAX_TAG_COUNT) break;
  }
  return normalized;
}
