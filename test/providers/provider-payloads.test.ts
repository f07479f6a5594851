/**
 * Real-shaped payloads for the bundled schemas/, one inline snapshot per provider. Four tools
 * cover the shapes that differ between providers: file_edit (optional boolean),
 * write_journal (enum, array, minLength, date format), list_project_docs (no parameters) and
 * cancel_event (explicit MCP annotations).
 */
import { describe, expect, it } from 'vitest';
import { translate } from '../../src/providers/translate.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';

const registry = await loadRegistry({ dirs: ['schemas'], strict: true });
const tools = ['file_edit', 'write_journal', 'list_project_docs', 'cancel_event'].map(
  (name) => registry.get(name)!,
);

describe('payloads for the bundled schemas', () => {
  it('openai (Chat Completions): nested function, strict with nullable optionals', () => {
    const result = translate(tools, 'openai');
    expect(result.warnings).toMatchInlineSnapshot(`
      [
        {
          "code": "KEYWORD_MOVED_TO_DESCRIPTION",
          "message": ""minLength" is not supported in OpenAI strict mode; it was moved into the description (at /properties/text/minLength)",
          "pointer": "/properties/text/minLength",
          "tool": "write_journal",
        },
      ]
    `);
    expect(result.payload).toMatchInlineSnapshot(`
      [
        {
          "function": {
            "description": "Edit a file by replacing exact text matches. You must read the file before editing.",
            "name": "file_edit",
            "parameters": {
              "additionalProperties": false,
              "properties": {
                "file_path": {
                  "description": "Absolute or relative path to file",
                  "type": "string",
                },
                "new_string": {
                  "description": "Text to replace old_string with",
                  "type": "string",
                },
                "old_string": {
                  "description": "Exact text to find and replace",
                  "type": "string",
                },
                "replace_all": {
                  "description": "Replace all occurrences (default: false, fails if not unique)",
                  "type": [
                    "boolean",
                    "null",
                  ],
                },
              },
              "required": [
                "file_path",
                "old_string",
                "new_string",
                "replace_all",
              ],
              "type": "object",
            },
            "strict": true,
          },
          "type": "function",
        },
        {
          "function": {
            "description": "Append an entry to the user's journal. Use it to remember something the user said or to record a reflection.",
            "name": "write_journal",
            "parameters": {
              "additionalProperties": false,
              "properties": {
                "date": {
                  "description": "Date the entry belongs to, YYYY-MM-DD; defaults to today",
                  "format": "date",
                  "type": [
                    "string",
                    "null",
                  ],
                },
                "mood": {
                  "description": "Optional mood label",
                  "enum": [
                    "great",
                    "good",
                    "neutral",
                    "low",
                    "bad",
                    null,
                  ],
                  "type": [
                    "string",
                    "null",
                  ],
                },
                "tags": {
                  "anyOf": [
                    {
                      "items": {
                        "type": "string",
                      },
                      "type": "array",
                    },
                    {
                      "type": "null",
                    },
                  ],
                  "description": "Optional labels for later search",
                },
                "text": {
                  "description": "The entry text (minLength: 1)",
                  "type": "string",
                },
              },
              "required": [
                "text",
                "date",
                "mood",
                "tags",
              ],
              "type": "object",
            },
            "strict": true,
          },
          "type": "function",
        },
        {
          "function": {
            "description": "List the documents of the current project with their ids, titles and last update times.",
            "name": "list_project_docs",
            "parameters": {
              "additionalProperties": false,
              "properties": {},
              "required": [],
              "type": "object",
            },
            "strict": true,
          },
          "type": "function",
        },
        {
          "function": {
            "description": "Cancel (delete) a calendar event by id.",
            "name": "cancel_event",
            "parameters": {
              "additionalProperties": false,
              "properties": {
                "event_id": {
                  "description": "Id of the event to cancel",
                  "type": "string",
                },
              },
              "required": [
                "event_id",
              ],
              "type": "object",
            },
            "strict": true,
          },
          "type": "function",
        },
      ]
    `);
  });

  it('openai-responses: flat function, same schema rules', () => {
    const result = translate(tools.slice(0, 1), 'openai-responses');
    expect(result.payload).toMatchInlineSnapshot(`
      [
        {
          "description": "Edit a file by replacing exact text matches. You must read the file before editing.",
          "name": "file_edit",
          "parameters": {
            "additionalProperties": false,
            "properties": {
              "file_path": {
                "description": "Absolute or relative path to file",
                "type": "string",
              },
              "new_string": {
                "description": "Text to replace old_string with",
                "type": "string",
              },
              "old_string": {
                "description": "Exact text to find and replace",
                "type": "string",
              },
              "replace_all": {
                "description": "Replace all occurrences (default: false, fails if not unique)",
                "type": [
                  "boolean",
                  "null",
                ],
              },
            },
            "required": [
              "file_path",
              "old_string",
              "new_string",
              "replace_all",
            ],
            "type": "object",
          },
          "strict": true,
          "type": "function",
        },
      ]
    `);
  });

  it('anthropic: input_schema unchanged; cache_control on the last tool', () => {
    const result = translate(tools, 'anthropic', { cacheControl: true });
    expect(result.warnings).toEqual([]);
    expect(result.payload).toMatchInlineSnapshot(`
      [
        {
          "description": "Edit a file by replacing exact text matches. You must read the file before editing.",
          "input_schema": {
            "properties": {
              "file_path": {
                "description": "Absolute or relative path to file",
                "type": "string",
              },
              "new_string": {
                "description": "Text to replace old_string with",
                "type": "string",
              },
              "old_string": {
                "description": "Exact text to find and replace",
                "type": "string",
              },
              "replace_all": {
                "description": "Replace all occurrences (default: false, fails if not unique)",
                "type": "boolean",
              },
            },
            "required": [
              "file_path",
              "old_string",
              "new_string",
            ],
            "type": "object",
          },
          "name": "file_edit",
        },
        {
          "description": "Append an entry to the user's journal. Use it to remember something the user said or to record a reflection.",
          "input_schema": {
            "properties": {
              "date": {
                "description": "Date the entry belongs to, YYYY-MM-DD; defaults to today",
                "format": "date",
                "type": "string",
              },
              "mood": {
                "description": "Optional mood label",
                "enum": [
                  "great",
                  "good",
                  "neutral",
                  "low",
                  "bad",
                ],
                "type": "string",
              },
              "tags": {
                "description": "Optional labels for later search",
                "items": {
                  "type": "string",
                },
                "type": "array",
              },
              "text": {
                "description": "The entry text",
                "minLength": 1,
                "type": "string",
              },
            },
            "required": [
              "text",
            ],
            "type": "object",
          },
          "name": "write_journal",
        },
        {
          "description": "List the documents of the current project with their ids, titles and last update times.",
          "input_schema": {
            "properties": {},
            "type": "object",
          },
          "name": "list_project_docs",
        },
        {
          "cache_control": {
            "type": "ephemeral",
          },
          "description": "Cancel (delete) a calendar event by id.",
          "input_schema": {
            "properties": {
              "event_id": {
                "description": "Id of the event to cancel",
                "type": "string",
              },
            },
            "required": [
              "event_id",
            ],
            "type": "object",
          },
          "name": "cancel_event",
        },
      ]
    `);
  });

  it('google: one Tool with functionDeclarations, OpenAPI-subset parameters', () => {
    const result = translate(tools, 'google');
    expect(result.warnings).toMatchInlineSnapshot(`
      [
        {
          "code": "KEYWORD_MOVED_TO_DESCRIPTION",
          "message": "format "date" is not accepted by Gemini for STRING type; it was moved into the description (at /properties/date/format)",
          "pointer": "/properties/date/format",
          "tool": "write_journal",
        },
      ]
    `);
    expect(result.payload).toMatchInlineSnapshot(`
      [
        {
          "functionDeclarations": [
            {
              "description": "Edit a file by replacing exact text matches. You must read the file before editing.",
              "name": "file_edit",
              "parameters": {
                "properties": {
                  "file_path": {
                    "description": "Absolute or relative path to file",
                    "type": "STRING",
                  },
                  "new_string": {
                    "description": "Text to replace old_string with",
                    "type": "STRING",
                  },
                  "old_string": {
                    "description": "Exact text to find and replace",
                    "type": "STRING",
                  },
                  "replace_all": {
                    "description": "Replace all occurrences (default: false, fails if not unique)",
                    "type": "BOOLEAN",
                  },
                },
                "required": [
                  "file_path",
                  "old_string",
                  "new_string",
                ],
                "type": "OBJECT",
              },
            },
            {
              "description": "Append an entry to the user's journal. Use it to remember something the user said or to record a reflection.",
              "name": "write_journal",
              "parameters": {
                "properties": {
                  "date": {
                    "description": "Date the entry belongs to, YYYY-MM-DD; defaults to today (format: date)",
                    "type": "STRING",
                  },
                  "mood": {
                    "description": "Optional mood label",
                    "enum": [
                      "great",
                      "good",
                      "neutral",
                      "low",
                      "bad",
                    ],
                    "type": "STRING",
                  },
                  "tags": {
                    "description": "Optional labels for later search",
                    "items": {
                      "type": "STRING",
                    },
                    "type": "ARRAY",
                  },
                  "text": {
                    "description": "The entry text",
                    "minLength": "1",
                    "type": "STRING",
                  },
                },
                "required": [
                  "text",
                ],
                "type": "OBJECT",
              },
            },
            {
              "description": "List the documents of the current project with their ids, titles and last update times.",
              "name": "list_project_docs",
            },
            {
              "description": "Cancel (delete) a calendar event by id.",
              "name": "cancel_event",
              "parameters": {
                "properties": {
                  "event_id": {
                    "description": "Id of the event to cancel",
                    "type": "STRING",
                  },
                },
                "required": [
                  "event_id",
                ],
                "type": "OBJECT",
              },
            },
          ],
        },
      ]
    `);
  });

  it('bedrock: toolSpec with inputSchema.json', () => {
    const result = translate(tools.slice(2), 'bedrock', { cachePoint: true });
    expect(result.payload).toMatchInlineSnapshot(`
      [
        {
          "toolSpec": {
            "description": "List the documents of the current project with their ids, titles and last update times.",
            "inputSchema": {
              "json": {
                "properties": {},
                "type": "object",
              },
            },
            "name": "list_project_docs",
          },
        },
        {
          "toolSpec": {
            "description": "Cancel (delete) a calendar event by id.",
            "inputSchema": {
              "json": {
                "properties": {
                  "event_id": {
                    "description": "Id of the event to cancel",
                    "type": "string",
                  },
                },
                "required": [
                  "event_id",
                ],
                "type": "object",
              },
            },
            "name": "cancel_event",
          },
        },
        {
          "cachePoint": {
            "type": "default",
          },
        },
      ]
    `);
  });

  it('mcp: tools/list entries with annotations derived from the category', () => {
    const result = translate(tools.slice(1), 'mcp');
    expect(result.payload).toMatchInlineSnapshot(`
      [
        {
          "annotations": {
            "destructiveHint": false,
          },
          "description": "Append an entry to the user's journal. Use it to remember something the user said or to record a reflection.",
          "inputSchema": {
            "properties": {
              "date": {
                "description": "Date the entry belongs to, YYYY-MM-DD; defaults to today",
                "format": "date",
                "type": "string",
              },
              "mood": {
                "description": "Optional mood label",
                "enum": [
                  "great",
                  "good",
                  "neutral",
                  "low",
                  "bad",
                ],
                "type": "string",
              },
              "tags": {
                "description": "Optional labels for later search",
                "items": {
                  "type": "string",
                },
                "type": "array",
              },
              "text": {
                "description": "The entry text",
                "minLength": 1,
                "type": "string",
              },
            },
            "required": [
              "text",
            ],
            "type": "object",
          },
          "name": "write_journal",
          "title": "Write journal entry",
        },
        {
          "annotations": {
            "readOnlyHint": true,
          },
          "description": "List the documents of the current project with their ids, titles and last update times.",
          "inputSchema": {
            "properties": {},
            "type": "object",
          },
          "name": "list_project_docs",
          "title": "List project documents",
        },
        {
          "annotations": {
            "destructiveHint": true,
            "idempotentHint": true,
          },
          "description": "Cancel (delete) a calendar event by id.",
          "inputSchema": {
            "properties": {
              "event_id": {
                "description": "Id of the event to cancel",
                "type": "string",
              },
            },
            "required": [
              "event_id",
            ],
            "type": "object",
          },
          "name": "cancel_event",
          "title": "Cancel event",
        },
      ]
    `);
  });

  it('canonical: {name, description, parameters}', () => {
    const result = translate(tools.slice(0, 1), 'canonical');
    expect(result.payload).toMatchInlineSnapshot(`
      [
        {
          "description": "Edit a file by replacing exact text matches. You must read the file before editing.",
          "name": "file_edit",
          "parameters": {
            "properties": {
              "file_path": {
                "description": "Absolute or relative path to file",
                "type": "string",
              },
              "new_string": {
                "description": "Text to replace old_string with",
                "type": "string",
              },
              "old_string": {
                "description": "Exact text to find and replace",
                "type": "string",
              },
              "replace_all": {
                "description": "Replace all occurrences (default: false, fails if not unique)",
                "type": "boolean",
              },
            },
            "required": [
              "file_path",
              "old_string",
              "new_string",
            ],
            "type": "object",
          },
        },
      ]
    `);
  });

  it('metadata beside the payload, never inside it', () => {
    const result = translate(tools, 'openai');
    expect(result.metadata).toMatchInlineSnapshot(`
      {
        "cancel_event": {
          "cost_estimate": "low",
          "executor": "calendar",
          "group": "calendar",
          "latency_estimate": "fast",
        },
        "file_edit": {
          "cost_estimate": "low",
          "executor": "files",
          "group": "files",
          "latency_estimate": "fast",
        },
        "list_project_docs": {
          "cost_estimate": "low",
          "executor": "project_docs",
          "group": "project_docs",
          "latency_estimate": "fast",
        },
        "write_journal": {
          "cost_estimate": "low",
          "executor": "journal",
          "group": "journal",
          "latency_estimate": "fast",
        },
      }
    `);
    expect(JSON.stringify(result.payload)).not.toMatch(/executor|cost_estimate|latency_estimate/);
  });
});
