import type { Warning } from '../format/types.js';

/** Where schema transforms report what they changed; one warning per (code, subject). */
export interface SchemaWarningSink {
  /**
   * Records that `text` happened at `pointer`. Reports with the same `code` and `subject` are
   * merged into one warning that lists every pointer.
   */
  add(code: string, subject: string, pointer: string, text: string): void;
}

interface Entry {
  code: string;
  text: string;
  pointers: string[];
}

const MAX_LISTED_POINTERS = 5;

/** A sink plus `finish(tool)`, which turns what was recorded into warnings about `tool`. */
export function createWarningSink(): SchemaWarningSink & { finish(tool: string): Warning[] } {
  const entries = new Map<string, Entry>();
  return {
    add(code, subject, pointer, text) {
      const key = `${code}\u0000${subject}`;
      const entry = entries.get(key);
      if (entry === undefined) entries.set(key, { code, text, pointers: [pointer] });
      else if (!entry.pointers.includes(pointer)) entry.pointers.push(pointer);
    },
    finish(tool) {
      return [...entries.values()].map((entry) => {
        const listed = entry.pointers.slice(0, MAX_LISTED_POINTERS).map(formatPlace);
        const more =
          entry.pointers.length > MAX_LISTED_POINTERS
            ? ` and ${entry.pointers.length - MAX_LISTED_POINTERS} more`
            : '';
        return {
          code: entry.code,
          message: `${entry.text} (at ${listed.join(', ')}${more})`,
          tool,
          pointer: entry.pointers[0] ?? '',
        };
      });
    },
  };
}

function formatPlace(pointer: string): string {
  return pointer === '' ? 'the root' : pointer;
}
