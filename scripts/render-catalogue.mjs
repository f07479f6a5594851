/**
 * Renders a catalogue of stable codes (`DIAGNOSTIC_CODES`, `EXECUTE_ERROR_CODES`) as a
 * Markdown page. Used by `npm run docs` to write docs/reference/ and by a test that checks the
 * pages are current.
 */
export function renderCatalogue({ title, intro, codes, source }) {
  const rows = Object.entries(codes).map(
    ([code, description]) => `| \`${code}\` | ${description.replace(/\|/g, '\\|')} |`,
  );
  return [
    `# ${title}`,
    '',
    intro,
    '',
    '| code | meaning |',
    '|---|---|',
    ...rows,
    '',
    `<!-- generated from ${source} by npm run docs; edit the descriptions there -->`,
    '',
  ].join('\n');
}

/** The catalogue pages, by file under docs/reference/. */
export function cataloguePages({ DIAGNOSTIC_CODES, EXECUTE_ERROR_CODES }) {
  return {
    'diagnostics.md': renderCatalogue({
      title: 'Diagnostics',
      intro:
        'Every problem `loadRegistry`, `register()` and `toolcap validate` report is a diagnostic `{ severity, code, file, pointer, line?, column?, message }`. Codes are stable; messages name the file, the field, the problem and the fix. Warnings never skip anything; an error skips the tool (a tool-level problem) or the group (a group-level one) and nothing else.',
      codes: DIAGNOSTIC_CODES,
      source: 'src/format/diagnostic-codes.ts',
    }),
    'execute-errors.md': renderCatalogue({
      title: 'Tool-call errors',
      intro:
        'A failed call is a result `{ ok: false, error: { code, message, details } }`, never a throw: the message is written for the model, so it can fix its call. Codes are stable; handlers add their own by throwing a `ToolError` from `tool-capabilities/handler-kit`.',
      codes: EXECUTE_ERROR_CODES,
      source: 'src/execute/execute-error-codes.ts',
    }),
  };
}
