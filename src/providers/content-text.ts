import { isRecord } from './provider-response-error.js';

/**
 * The text of a message's content: a string as it is, or the text of the parts of an array
 * that `textOf` reads, joined by newlines (images and files have none); undefined when the
 * content is neither a string nor an array.
 */
export function contentText(
  content: unknown,
  textOf: (part: Record<string, unknown>) => unknown,
): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .flatMap((part) => {
      const text = isRecord(part) ? textOf(part) : undefined;
      return typeof text === 'string' ? [text] : [];
    })
    .join('\n');
}

/** Whether every entry of `content` is an object that `is` accepts (false for an empty array). */
export function onlyBlocks(
  content: readonly unknown[],
  is: (block: Record<string, unknown>) => boolean,
): boolean {
  return content.length > 0 && content.every((block) => isRecord(block) && is(block));
}
