import { describe, expect, it } from 'vitest';
import { parseTranscriptLine } from '../../src/migrate/parse-transcript-line.js';

const line = (value: unknown) => JSON.stringify(value);
const call = (name: string) => ({
  id: `call_${name}`,
  type: 'function',
  function: { name, arguments: '{}' },
});

describe('parseTranscriptLine: openai', () => {
  it('pairs each call with the latest user message before the assistant turn', () => {
    const parsed = parseTranscriptLine(
      line({
        messages: [
          { role: 'system', content: 'You are helpful.' },
          { role: 'user', content: 'What is the weather in Oslo?' },
          { role: 'assistant', content: null, tool_calls: [call('get_weather')] },
          { role: 'tool', tool_call_id: 'call_get_weather', content: '{"temp": 3}' },
          { role: 'assistant', tool_calls: [call('convert_units'), call('convert_units')] },
          { role: 'tool', tool_call_id: 'x', content: '37 F' },
          { role: 'assistant', content: 'It is 3 °C (37 °F).' },
          {
            role: 'user',
            content: [{ type: 'text', text: 'And tomorrow?' }, { type: 'image_url' }],
          },
          { role: 'assistant', function_call: { name: 'get_forecast', arguments: '{}' } },
        ],
      }),
      'openai',
    );
    expect(parsed).toEqual({
      ok: true,
      calls: [
        { message: 'What is the weather in Oslo?', tool: 'get_weather' },
        { message: 'What is the weather in Oslo?', tool: 'convert_units' },
        { message: 'And tomorrow?', tool: 'get_forecast' },
      ],
      unprompted: 0,
      unconfirmed: 0,
    });
  });

  it('counts calls made before any user message instead of pairing them', () => {
    expect(
      parseTranscriptLine(
        line({
          messages: [
            { role: 'assistant', tool_calls: [call('warm_up'), call('warm_up')] },
            { role: 'user', content: 'hi' },
          ],
        }),
        'openai',
      ),
    ).toEqual({ ok: true, calls: [], unprompted: 1, unconfirmed: 0 });
  });

  it.each([
    ['{"messages": [', /^not valid JSON \(.+\); each line must be one JSON object$/],
    ['[1, 2]', /^expected a JSON object \{"messages": \[\.\.\.\]\}, got an array$/],
    [
      line({ conversation: [] }),
      /^no "messages" array; an OpenAI chat line is \{"messages": \[\{"role": "user", \.\.\.\}, \.\.\.\]\}$/,
    ],
    [
      line({ message: 'hi', tool: 'x' }),
      /no "messages" array; .* \(a \{"message", "tool"\} line is --from pairs\)$/,
    ],
    [line({ messages: ['hi'] }), /^messages\[0\] must be an object, got a string$/],
    [
      line({ messages: [{ role: 'robot', content: 'x' }] }),
      /^messages\[0\] has unknown role "robot"; OpenAI chat roles are system, developer, user, assistant and tool$/,
    ],
    [line({ messages: [{ content: 'x' }] }), /^messages\[0\] has no "role"; OpenAI chat roles/],
    [
      line({ messages: [{ role: 'user', content: 42 }] }),
      /^messages\[0\]\.content must be a string or an array of content parts, got a number$/,
    ],
    [
      line({ messages: [{ role: 'assistant', tool_calls: { name: 'x' } }] }),
      /^messages\[0\]\.tool_calls must be an array, got an object$/,
    ],
    [
      line({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', tool_calls: [{}] },
        ],
      }),
      /^messages\[1\]\.tool_calls\[0\] has no function\.name; each call is \{"type": "function", "function": \{"name": \.\.\., "arguments": \.\.\.\}\}$/,
    ],
    [
      line({ messages: [{ role: 'assistant', function_call: { arguments: '{}' } }] }),
      /^messages\[0\]\.function_call has no "name"$/,
    ],
    [
      line({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'x', input: {} }] },
        ],
      }),
      /^messages\[1\] holds an Anthropic "tool_use" block; read this file with --from anthropic$/,
    ],
  ])('reports %s', (text, problem) => {
    const parsed = parseTranscriptLine(text, 'openai');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(problem);
  });
});

describe('parseTranscriptLine: anthropic', () => {
  it('reads tool_use blocks; tool results do not replace the user message', () => {
    const parsed = parseTranscriptLine(
      line({
        system: 'Be brief.',
        messages: [
          { role: 'user', content: 'Book me a table for two tonight' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Checking.' },
              { type: 'tool_use', id: 'a', name: 'find_restaurant', input: {} },
            ],
          },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'a', content: 'Chez Nous' }],
          },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'b', name: 'book_table', input: {} }],
          },
          { role: 'user', content: [{ type: 'text', text: 'thanks!' }] },
          { role: 'assistant', content: 'You are welcome.' },
        ],
      }),
      'anthropic',
    );
    expect(parsed).toEqual({
      ok: true,
      calls: [
        { message: 'Book me a table for two tonight', tool: 'find_restaurant' },
        { message: 'Book me a table for two tonight', tool: 'book_table' },
      ],
      unprompted: 0,
      unconfirmed: 0,
    });
  });

  it.each([
    [
      line({ messages: [{ role: 'tool', content: 'x' }] }),
      /^messages\[0\] has unknown role "tool"; Anthropic roles are user and assistant \(a "tool" message is OpenAI's format: use --from openai; Anthropic's system prompt is the top-level "system"\)$/,
    ],
    [
      line({ messages: [{ role: 'model', content: 'x' }] }),
      /^messages\[0\] has unknown role "model"; Anthropic roles are user and assistant$/,
    ],
    [
      line({ messages: [{ role: 'user' }] }),
      /^messages\[0\]\.content must be a string or an array of content blocks, got nothing$/,
    ],
    [
      line({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: null, tool_calls: [call('x')] },
        ],
      }),
      /^messages\[1\]\.content must be a string or an array/,
    ],
    [
      line({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: '', tool_calls: [call('x')] },
        ],
      }),
      /^messages\[1\] has OpenAI "tool_calls"; read this file with --from openai$/,
    ],
    [
      line({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'a', input: {} }] },
        ],
      }),
      /^messages\[1\]\.content\[0\] is a "tool_use" block without a "name"$/,
    ],
    [line({ messages: 'hello' }), /^no "messages" array; an Anthropic line is/],
  ])('reports %s', (text, problem) => {
    const parsed = parseTranscriptLine(text, 'anthropic');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(problem);
  });
});

describe('parseTranscriptLine: pairs', () => {
  it('reads one message and tool per line', () => {
    expect(
      parseTranscriptLine(
        line({ message: 'convert 3 USD to EUR', tool: 'convert', extra: 1 }),
        'pairs',
      ),
    ).toEqual({
      ok: true,
      calls: [{ message: 'convert 3 USD to EUR', tool: 'convert' }],
      unprompted: 0,
      unconfirmed: 0,
    });
  });

  it('keeps the group and the server tool that toolcap mcp --record-pairs writes', () => {
    expect(
      parseTranscriptLine(
        line({
          message: 'sum 2 and 3',
          tool: 'beta_add',
          group: 'beta',
          server: 'beta',
          server_tool: 'add',
        }),
        'pairs',
      ),
    ).toEqual({
      ok: true,
      calls: [{ message: 'sum 2 and 3', tool: 'beta_add', group: 'beta', serverTool: 'add' }],
      unprompted: 0,
      unconfirmed: 0,
    });
  });

  it.each([
    ['"just text"', /^expected a JSON object \{"message": \.\.\., "tool": \.\.\.\}, got a string$/],
    [
      line({ message: 'hi' }),
      /^"tool" must be the name of the tool the message led to, got nothing$/,
    ],
    [line({ message: 'hi', tool: '' }), /^"tool" must be the name of the tool/],
    [
      line({ text: 'hi', tool: 'x' }),
      /^"message" must be a string \(the user's message\), got nothing$/,
    ],
    [
      line({ mesage: 'refund order 123', tool: 'x' }),
      /^"message" must be a string \(the user's message\), got nothing; the line has "mesage": did you mean "message"\?$/,
    ],
    [
      line({ Message: 'refund order 123', tool: 'x' }),
      /^"message" must be a string \(the user's message\), got nothing; the line has "Message": did you mean "message"\?$/,
    ],
    [
      line({ message: 'refund order 123', tol: 'refund_order', server: 'shop' }),
      /^"tool" must be the name of the tool the message led to, got nothing; the line has "tol": did you mean "tool"\?$/,
    ],
    [
      line({ message: 'hi', tool: 'x', group: 3 }),
      /^"group" must be a non-empty string \(the tool's group\), got a number; leave it out when unknown$/,
    ],
    [
      line({ message: 'hi', tool: 'x', server_tool: '' }),
      /^"server_tool" must be a non-empty string \(the tool's name on its MCP server\), got /,
    ],
    [
      line({ messages: [] }),
      /^this line is a conversation \("messages"\); read it with --from openai or --from anthropic$/,
    ],
  ])('reports %s', (text, problem) => {
    const parsed = parseTranscriptLine(text, 'pairs');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(problem);
  });
});

describe('parseTranscriptLine: confirmations are not requests', () => {
  const refund = { type: 'tool_use', id: 'toolu_1', name: 'refund_order', input: {} };

  it('openai: a call after "yes go ahead" is paired with the request before it', () => {
    const parsed = parseTranscriptLine(
      line({
        messages: [
          { role: 'user', content: 'refund order 123' },
          { role: 'assistant', content: 'Order 123 cost $40. Shall I refund it?' },
          { role: 'user', content: 'yes go ahead' },
          { role: 'assistant', tool_calls: [call('refund_order')] },
          { role: 'tool', tool_call_id: 'call_refund_order', content: 'done' },
          { role: 'user', content: 'thanks! now show my agenda' },
          { role: 'assistant', content: 'For today?' },
          { role: 'user', content: 'Sure 👍' },
          { role: 'assistant', tool_calls: [call('get_agenda')] },
        ],
      }),
      'openai',
    );
    expect(parsed).toEqual({
      ok: true,
      calls: [
        { message: 'refund order 123', tool: 'refund_order' },
        { message: 'thanks! now show my agenda', tool: 'get_agenda' },
      ],
      unprompted: 0,
      unconfirmed: 0,
    });
  });

  it('anthropic: the same, with tool results between the turns', () => {
    const parsed = parseTranscriptLine(
      line({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'refund order 123' }] },
          { role: 'assistant', content: 'Shall I?' },
          { role: 'user', content: 'ok, do it please' },
          { role: 'assistant', content: [refund] },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }],
          },
          { role: 'assistant', content: [{ ...refund, id: 'toolu_2' }] },
        ],
      }),
      'anthropic',
    );
    expect(parsed).toEqual({
      ok: true,
      calls: [
        { message: 'refund order 123', tool: 'refund_order' },
        { message: 'refund order 123', tool: 'refund_order' },
      ],
      unprompted: 0,
      unconfirmed: 0,
    });
  });

  it('leaves out a call with no request before it, and a pairs line that is a confirmation', () => {
    expect(
      parseTranscriptLine(
        line({
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: 'Shall I refund your last order?' },
            { role: 'user', content: 'yes go ahead' },
            { role: 'assistant', tool_calls: [call('refund_order'), call('notify_user')] },
          ],
        }),
        'openai',
      ),
    ).toEqual({ ok: true, calls: [], unprompted: 0, unconfirmed: 2 });
    expect(
      parseTranscriptLine(line({ message: 'Yes, go ahead!', tool: 'refund_order' }), 'pairs'),
    ).toEqual({ ok: true, calls: [], unprompted: 0, unconfirmed: 1 });
  });

  it('leaves out a confirmed follow-up to a request that already led to another tool', () => {
    const parsed = parseTranscriptLine(
      line({
        messages: [
          { role: 'user', content: 'add a task to buy milk' },
          { role: 'assistant', tool_calls: [call('add_task')] },
          { role: 'tool', tool_call_id: 'call_add_task', content: 'ok' },
          { role: 'assistant', content: 'Shall I also put it on your calendar?' },
          { role: 'user', content: 'yes please' },
          { role: 'assistant', tool_calls: [call('create_event'), call('add_task')] },
          { role: 'user', content: 'ok' },
          { role: 'assistant', tool_calls: [call('create_event')] },
          { role: 'user', content: 'now show my agenda' },
          { role: 'assistant', content: 'For today?' },
          { role: 'user', content: 'yes' },
          { role: 'assistant', tool_calls: [call('get_agenda')] },
        ],
      }),
      'openai',
    );
    expect(parsed).toEqual({
      ok: true,
      calls: [
        { message: 'add a task to buy milk', tool: 'add_task' },
        // the same tool again after a confirmation is still what was asked for
        { message: 'add a task to buy milk', tool: 'add_task' },
        { message: 'now show my agenda', tool: 'get_agenda' },
      ],
      unprompted: 0,
      unconfirmed: 2,
    });
  });

  it('keeps an empty latest message as it is (learning reports it as empty)', () => {
    expect(
      parseTranscriptLine(
        line({
          messages: [
            { role: 'user', content: 'refund order 123' },
            { role: 'user', content: '  ' },
            { role: 'assistant', tool_calls: [call('refund_order')] },
          ],
        }),
        'openai',
      ),
    ).toEqual({
      ok: true,
      calls: [{ message: '  ', tool: 'refund_order' }],
      unprompted: 0,
      unconfirmed: 0,
    });
  });
});
