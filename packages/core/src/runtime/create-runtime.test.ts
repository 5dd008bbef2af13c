import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

const read = defineTool({
  name: 'read',
  description: 'Reads.',
  inputSchema: z.object({}),
  execute: () => 'r',
});
const write = defineTool({
  name: 'write',
  description: 'Writes.',
  inputSchema: z.object({}),
  effect: 'write',
  execute: () => 'w',
});

describe('createRuntime', () => {
  it('refuses duplicate names, naming the tool and the fix', () => {
    expect(() => createRuntime({ tools: [read, { ...read }] })).toThrow(
      'createRuntime: two tools are named "read". Give each tool a unique name.',
    );
  });

  it('refuses something that is not a defined tool', () => {
    expect(() => createRuntime({ tools: [{ name: 'raw', execute: () => 1 } as never] })).toThrow(
      /"raw" is not a tool\. Make each tool with defineTool/,
    );
    expect(() => createRuntime({ tools: [null as never] })).toThrow(/a null is not a tool/);
    expect(() => createRuntime({} as never)).toThrow(/needs \{ tools: \[\.\.\.\] \}/);
  });

  it('lists only read tools in the plan phase', () => {
    const runtime = createRuntime({ tools: [read, write] });
    expect(runtime.listTools().map((tool) => tool.name)).toEqual(['read', 'write']);
    expect(runtime.listTools({ phase: 'plan' }).map((tool) => tool.name)).toEqual(['read']);
  });

  it('answers an unknown tool with the names it has', async () => {
    const run = createRuntime({ tools: [read, write] }).startRun();
    const result = await run.call({ tool: 'delete_all', args: {} });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'unknown-tool',
        message: 'There is no tool named "delete_all". Available: read, write.',
        retryable: false,
        details: { available: ['read', 'write'] },
      },
    });
  });
});

describe('startRun({ continuesAfterSeq })', () => {
  it('continues a recorded run: no second run.started, and seq goes on from the recorded one', async () => {
    const seen: Array<[string, number]> = [];
    const run = createRuntime({ tools: [read] }).startRun({
      runId: 'run_restarted',
      continuesAfterSeq: 7,
      onEvent: (event) => void seen.push([event.type, event.seq]),
    });
    await run.call({ tool: 'read', args: {} });
    await run.end();
    expect(seen).toEqual([
      ['tool.started', 8],
      ['tool.finished', 9],
      ['run.finished', 10],
    ]);
  });

  it('refuses a seq that is not a whole number from 0, saying what it should be', () => {
    expect(() => createRuntime({ tools: [read] }).startRun({ continuesAfterSeq: -1 })).toThrow(
      'startRun: continuesAfterSeq must be the seq of the last recorded event (a whole number from 0), not -1.',
    );
  });
});
