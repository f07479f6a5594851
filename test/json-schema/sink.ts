import type { Warning } from '../../src/format/types.js';
import { createWarningSink } from '../../src/json-schema/schema-warnings.js';

/** A warning sink plus a way to read what it collected (as warnings about tool "t"). */
export function collect(): {
  sink: ReturnType<typeof createWarningSink>;
  warnings: () => Warning[];
  codes: () => string[];
} {
  const sink = createWarningSink();
  return {
    sink,
    warnings: () => sink.finish('t'),
    codes: () => sink.finish('t').map((warning) => warning.code),
  };
}
