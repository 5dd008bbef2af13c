// The fixtures the MCP conformance suite's server scenarios call, as ordinary toolctx tools: the
// same set behind both set-ups (serveMcp on Node, the Worker's /mcp); the elicitation ones ask
// with ctx.ask. Scenarios whose fixture toolctx cannot express (sampling: a tool asking the
// client's model) are listed in expected-failures.json instead.
import {
  type AnyTool,
  type AskFormAnswer,
  type AskSchema,
  defineTool,
  ToolctxError,
  withParts,
} from '@toolctx/core';
import { z } from 'zod';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The scenarios read the answer back from the result's text, as the suite's own server writes it. */
const answerText = (answer: AskFormAnswer) =>
  `action=${answer.action}, content=${JSON.stringify(answer.action === 'accept' ? answer.values : {})}`;

const nameForm: AskSchema = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};

const defaultsForm: AskSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: {
      type: 'string',
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
};

const enumsForm: AskSchema = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

// A 1×1 red PNG and a WAV header with no samples: the smallest payloads the scenarios accept.
const redPixelPng =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const silentWav = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';

export const conformanceTools: AnyTool[] = [
  defineTool({
    name: 'test_simple_text',
    description: 'Returns a simple text response.',
    inputSchema: z.object({}),
    execute: () => 'This is a simple text response for testing.',
  }),
  defineTool({
    name: 'test_error_handling',
    description: 'Always fails.',
    inputSchema: z.object({}),
    execute: () => {
      throw new Error('This tool intentionally returns an error for testing');
    },
  }),
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100, about 50 ms apart.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) => {
      for (const done of [0, 50, 100]) {
        if (done > 0) await sleep(50);
        ctx.progress({ done, total: 100 });
      }
      return 'Progress reported: 0, 50 and 100 of 100.';
    },
  }),
  defineTool({
    name: 'test_tool_with_logging',
    description: 'Logs three entries, about 50 ms apart, while it works.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) => {
      ctx.log('info', 'Tool execution started');
      await sleep(50);
      ctx.log('info', 'Tool processing data');
      await sleep(50);
      ctx.log('info', 'Tool execution completed');
      return 'Logged three entries.';
    },
  }),
  defineTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: z.object({
      name: z.string().optional(),
      address: z.object({ street: z.string().optional(), city: z.string().optional() }).optional(),
    }),
    inputJsonSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          $anchor: 'address',
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
      // 2026-07-28 (SEP-2106) checks that composition and conditional keywords reach the client.
      allOf: [{ anyOf: [{ required: ['name'] }, { required: ['address'] }, { maxProperties: 0 }] }],
      if: { required: ['address'] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own keyword, in plain data.
      then: { properties: { address: { type: 'object' } } },
      else: { properties: { name: { type: 'string' } } },
    },
    execute: ({ name }) => `Hello, ${name ?? 'anonymous'}.`,
  }),
  defineTool({
    name: 'test_image_content',
    description: 'Returns a 1×1 red PNG.',
    inputSchema: z.object({}),
    execute: () => withParts([{ type: 'image', data: redPixelPng, mediaType: 'image/png' }]),
  }),
  defineTool({
    name: 'test_audio_content',
    description: 'Returns a silent WAV.',
    inputSchema: z.object({}),
    execute: () => withParts([{ type: 'audio', data: silentWav, mediaType: 'audio/wav' }]),
  }),
  defineTool({
    name: 'test_embedded_resource',
    description: 'Returns an embedded text resource.',
    inputSchema: z.object({}),
    execute: () =>
      withParts([
        {
          type: 'resource',
          uri: 'test://embedded-resource',
          mediaType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      ]),
  }),
  defineTool({
    name: 'test_multiple_content_types',
    description: 'Returns text, an image and an embedded resource.',
    inputSchema: z.object({}),
    execute: () =>
      withParts([
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: redPixelPng, mediaType: 'image/png' },
        {
          type: 'resource',
          uri: 'test://mixed-content-resource',
          mediaType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      ]),
  }),
  defineTool({
    name: 'test_elicitation',
    description: 'Asks the person for a username and an email.',
    inputSchema: z.object({ message: z.string() }),
    execute: async ({ message }, ctx) => {
      const answer = await ctx.ask({
        message,
        schema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return `User response: ${answerText(answer)}`;
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Asks for five fields, each with a default.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) =>
      `Elicitation completed: ${answerText(await ctx.ask({ message: 'Please review the defaults.', schema: defaultsForm }))}`,
  }),
  defineTool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Asks with each of the five enum forms.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) =>
      `Elicitation completed: ${answerText(await ctx.ask({ message: 'Please choose.', schema: enumsForm }))}`,
  }),
  // SEP-1699 polling (scenario server-sse-polling): the set-ups close this call's SSE stream as it
  // starts (reconnection.ts); the client resumes with Last-Event-ID and reads this answer from the
  // event store.
  defineTool({
    name: 'test_reconnection',
    description: 'Has its SSE stream closed at once, and answers half a second later.',
    inputSchema: z.object({}),
    execute: async () => {
      await sleep(500);
      return 'Reconnection test completed';
    },
  }),
  // MCP 2026's input_required rounds (SEP-2322): plain asks with the keys the scenarios name.
  defineTool({
    name: 'test_input_required_result_elicitation',
    description: 'Asks for a name (key user_name) and greets it.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) => {
      const answer = await ctx.ask({ key: 'user_name', message: 'What is your name?', schema: nameForm });
      return answer.action === 'accept' ? `Hello, ${answer.values.name}!` : `No name (${answer.action}).`;
    },
  }),
  defineTool({
    name: 'test_input_required_result_request_state',
    description: 'Asks for a confirmation (key confirm) and answers state-ok.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) => {
      const answer = await ctx.ask({
        key: 'confirm',
        message: 'Please confirm',
        schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      return `state-ok: ${answerText(answer)}`;
    },
  }),
  defineTool({
    name: 'test_input_required_result_multi_round',
    description: 'Asks for a name (step1), then a colour (step2).',
    inputSchema: z.object({}),
    execute: async (_args, ctx) => {
      const name = await ctx.ask({ key: 'step1', message: 'Step 1: What is your name?', schema: nameForm });
      const color = await ctx.ask({
        key: 'step2',
        message: 'Step 2: What is your favorite color?',
        schema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
      });
      return `Name: ${answerText(name)}; colour: ${answerText(color)}`;
    },
  }),
  defineTool({
    name: 'test_input_required_result_tampered_state',
    description: 'Asks for a name; its round state is signed.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) =>
      answerText(await ctx.ask({ key: 'user_name', message: 'What is your name?', schema: nameForm })),
  }),
  // The Tasks extension (SEP-2663): a call of a client that declared it is a task when its tool
  // says `taskSupport: 'required'`, or when it runs past its window (`optional`, the default).
  defineTool({
    name: 'greet',
    description: 'Greets a name at once: never a task.',
    inputSchema: z.object({ name: z.string() }),
    taskSupport: 'forbidden',
    execute: ({ name }) => `Hello, ${name}!`,
  }),
  defineTool({
    name: 'slow_compute',
    description: 'Sleeps for `seconds`, then answers; a task past a quarter second. Cancellable.',
    inputSchema: z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }),
    taskWindowMs: 250,
    execute: async ({ seconds, label }, ctx) => {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, seconds * 1000);
        ctx.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            reject(ctx.signal.reason);
          },
          { once: true },
        );
      });
      return `Computed ${label ?? 'result'} after ${seconds}s`;
    },
  }),
  defineTool({
    name: 'failing_job',
    description: 'Always a task; fails as a tool after a second.',
    inputSchema: z.object({}),
    taskSupport: 'required',
    execute: async () => {
      await sleep(1000);
      throw new Error('The job failed, as it always does.');
    },
  }),
  defineTool({
    name: 'protocol_error_job',
    description: 'Always a task; ends in a host fault (internal), not a tool error.',
    inputSchema: z.object({}),
    taskSupport: 'required',
    execute: async () => {
      await sleep(200);
      throw new ToolctxError('internal', 'The job hit an internal fault.');
    },
  }),
  defineTool({
    name: 'confirm_delete',
    description: 'Always a task; asks to confirm deleting `filename`.',
    inputSchema: z.object({ filename: z.string() }),
    taskSupport: 'required',
    execute: async ({ filename }, ctx) => {
      const answer = await ctx.ask({
        key: 'confirm',
        message: `Delete ${filename}?`,
        schema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      });
      return answer.action === 'accept' && answer.values.confirm ? `Deleted ${filename}` : `Kept ${filename}`;
    },
  }),
  defineTool({
    name: 'multi_input',
    description: 'Always a task; asks two questions at once.',
    inputSchema: z.object({}),
    taskSupport: 'required',
    execute: async (_args, ctx) => {
      const form: AskSchema = {
        type: 'object',
        properties: { name: { type: 'string' }, confirm: { type: 'boolean' } },
      };
      const [first, second] = await Promise.all([
        ctx.ask({ key: 'first', message: 'First input?', schema: form }),
        ctx.ask({ key: 'second', message: 'Second input?', schema: form }),
      ]);
      return `first: ${answerText(first)}; second: ${answerText(second)}`;
    },
  }),
  defineTool({
    name: 'test_tool_with_task',
    description: 'Asks for a name (a round), then works for a second and a half (a task).',
    inputSchema: z.object({}),
    execute: async (_args, ctx) => {
      const answer = await ctx.ask({ key: 'user_name', message: 'What is your name?', schema: nameForm });
      await sleep(1500);
      return answer.action === 'accept' ? `Hello, ${answer.values.name}!` : `No name (${answer.action}).`;
    },
  }),
  // MCP 2026's custom headers (SEP-2243): `region` travels in the body and as `Mcp-Param-Region`.
  defineTool({
    name: 'test_custom_header',
    description: 'Echoes a region that clients mirror into the Mcp-Param-Region header.',
    inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }),
    execute: ({ region }) => `Region: ${region}`,
  }),
];
