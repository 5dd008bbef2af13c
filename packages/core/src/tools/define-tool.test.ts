import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool, toolSchema } from './define-tool.js';

const search = defineTool({
  name: 'search',
  description: 'Searches the notes.',
  inputSchema: z.object({ query: z.string().min(1), limit: z.number().int().max(50).optional() }),
  execute: ({ query, limit }) => ({ query, limit: limit ?? 10 }),
});

/** A hand-written Standard Schema validator (no JSON Schema of its own), as other libraries give. */
const evenNumber: StandardSchemaV1<{ n: number }> = {
  '~standard': {
    version: 1,
    vendor: 'hand-written',
    validate: (value) => {
      const n = (value as { n?: unknown } | null)?.n;
      return typeof n === 'number' && n % 2 === 0
        ? { value: { n } }
        : { issues: [{ message: 'must be an even number', path: ['n'] }] };
    },
  },
};

describe('defineTool and toolSchema', () => {
  it('derives the JSON Schema a model sees from a zod 4 schema', () => {
    const schema = toolSchema(search);
    expect(schema).toEqual({
      name: 'search',
      description: 'Searches the notes.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1 },
          limit: { type: 'integer', maximum: 50, minimum: expect.any(Number) },
        },
        required: ['query'],
      },
    });
    expect(schema.inputSchema).not.toHaveProperty('$schema');
    expect(Object.keys(schema)).toEqual(['name', 'description', 'inputSchema']);
  });

  it('takes any Standard Schema validator, with its JSON Schema given alongside', async () => {
    const half = defineTool({
      name: 'half',
      description: 'Halves an even number.',
      inputSchema: evenNumber,
      inputJsonSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      execute: ({ n }) => n / 2,
    });
    const run = createRuntime({ tools: [half] }).startRun();
    expect(await run.call({ tool: 'half', args: { n: 8 } })).toMatchObject({
      ok: true,
      value: 4,
      content: '4',
    });
    const bad = await run.call({ tool: 'half', args: { n: 3 } });
    expect(bad).toEqual({
      ok: false,
      error: expect.objectContaining({
        kind: 'args-invalid',
        details: { issues: [{ path: 'n', message: 'must be an even number' }] },
      }),
    });
  });

  it('checks the result against outputSchema before it is returned', async () => {
    const count = defineTool({
      name: 'count',
      description: 'Counts, or claims to.',
      inputSchema: z.object({ honest: z.boolean() }),
      outputSchema: z.number(),
      execute: ({ honest }) => (honest ? 3 : ('three' as unknown as number)),
    });
    const run = createRuntime({ tools: [count] }).startRun();
    expect(await run.call({ tool: 'count', args: { honest: true } })).toMatchObject({ ok: true, value: 3 });
    expect(await run.call({ tool: 'count', args: { honest: false } })).toMatchObject({
      ok: false,
      error: { kind: 'tool-error', message: expect.stringMatching(/does not match its output schema/) },
    });
  });

  it('refuses a validator that cannot describe itself, naming the fix', () => {
    expect(() =>
      defineTool({
        name: 'half',
        description: 'Halves.',
        inputSchema: evenNumber,
        execute: ({ n }) => n / 2,
      }),
    ).toThrow(/cannot produce a JSON Schema\. Pass inputJsonSchema/);
  });

  it('names the zod version a schema came from when that zod is older than 4.2', () => {
    // zod 4.0 and 4.1 schemas validate but carry no JSON Schema converter; their `_zod.version` says which.
    const zod41Schema = { ...evenNumber, _zod: { version: { major: 4, minor: 1, patch: 13 } } };
    const fromZod41 = { ...zod41Schema, '~standard': { ...evenNumber['~standard'], vendor: 'zod' } };
    expect(() =>
      defineTool({ name: 'half', description: 'Halves.', inputSchema: fromZod41, execute: ({ n }) => n / 2 }),
    ).toThrow(/use zod 4\.2 or later \(this schema is zod 4\.1\.13/);
  });

  it.each([
    ['', /not valid/],
    ['has space', /not valid/],
    ['x'.repeat(65), /not valid/],
    ['dots.not.allowed', /not valid/],
  ])('refuses the tool name %j', (name, message) => {
    expect(() => defineTool({ ...search, name })).toThrow(message);
  });

  it('refuses a missing description, validator or execute, and a non-object input', () => {
    expect(() => defineTool({ ...search, description: ' ' })).toThrow(/needs a description/);
    expect(() => defineTool({ ...search, inputSchema: {} as never })).toThrow(/needs an inputSchema/);
    expect(() => defineTool({ ...search, execute: undefined as never })).toThrow(/execute\(args, ctx\)/);
    const { inputJsonSchema: _derived, ...definition } = search;
    expect(() => defineTool({ ...definition, inputSchema: z.string() } as never)).toThrow(
      /must be an object schema/,
    );
  });

  it('keeps icons for people, and refuses one that is not an https: address or a data:image/ URI', () => {
    const icons = [{ src: 'https://example.com/search.png', mimeType: 'image/png', sizes: ['48x48'] }];
    expect(defineTool({ ...search, icons }).icons).toEqual(icons);
    expect(
      defineTool({ ...search, icons: [{ src: 'data:image/svg+xml;base64,PHN2Zz4=' }] }).icons,
    ).toHaveLength(1);
    for (const bad of [
      [{ src: 'javascript:alert(1)' }],
      [{ src: 'http://example.com/a.png' }],
      [{}],
      'https://x',
    ])
      expect(() => defineTool({ ...search, icons: bad as never })).toThrow(
        /Tool "search": icons is a list of \{ src \}, each src an https: address or a data:image\/ URI/,
      );
  });

  it('keeps a title for people, and refuses a blank one', () => {
    expect(defineTool({ ...search, title: 'Search' }).title).toBe('Search');
    expect(() => defineTool({ ...search, title: ' ' })).toThrow(/a title, when given, is a non-empty string/);
  });

  it('lists every argument problem with its path, and does not run the tool', async () => {
    let ran = false;
    const tool = defineTool({
      name: 'book',
      description: 'Books a trip.',
      inputSchema: z.object({
        city: z.string(),
        nights: z.number().int().positive(),
        guests: z.array(z.string()),
      }),
      execute: () => {
        ran = true;
      },
    });
    const run = createRuntime({ tools: [tool] }).startRun();
    const result = await run.call({ tool: 'book', args: { city: 7, nights: -1, guests: ['a', 2] } });
    expect(ran).toBe(false);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('args-invalid');
    const paths = (result.error.details!.issues as { path: string }[]).map((issue) => issue.path);
    expect(paths).toEqual(['city', 'nights', 'guests[1]']);
    expect(result.error.message).toMatch(/^Invalid arguments for "book": city: /);
  });
});
