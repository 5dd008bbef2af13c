import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolEvent } from '../events/catalogue.js';
import type { EventSink, SinkOrigin } from '../events/event-log.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

const note = defineTool({
  name: 'note',
  description: 'Writes a note.',
  inputSchema: z.object({}),
  effect: 'write',
  execute: () => 'noted',
});

/** A sink that asks where it serves, and files each event with the door it was told. */
function labelling() {
  const origins: SinkOrigin[] = [];
  const seen: [string, string][] = [];
  const sink: EventSink = Object.assign((event: ToolEvent) => void seen.push(['?', event.type]), {
    forRuntime: (origin: SinkOrigin) => {
      origins.push(origin);
      return (event: ToolEvent) => void seen.push([origin.door, event.type]);
    },
  });
  return { sink, origins, seen };
}

describe("a sink's forRuntime", () => {
  it('is told the door and the tools once per door, and its returned sink gets that door’s events', async () => {
    const { sink, origins, seen } = labelling();
    const runtime = createRuntime({ tools: [note], sinks: [sink] });
    const other = runtime.withDoor({ ...runtime.door, name: 'other' });
    await runtime.startRun().call({ tool: 'note', args: {} });
    await other.startRun().call({ tool: 'note', args: {} });
    expect(origins.map((origin) => origin.door)).toEqual(['in-process', 'other']);
    expect(origins[0]!.tools.get('note')).toMatchObject({ effect: 'write', description: 'Writes a note.' });
    expect(seen.filter(([, type]) => type === 'tool.finished')).toEqual([
      ['in-process', 'tool.finished'],
      ['other', 'tool.finished'],
    ]);
  });

  it("is asked for a run's onEvent and for callOnce's, so those sinks know the door too", async () => {
    const { sink, seen } = labelling();
    const runtime = createRuntime({ tools: [note] });
    await runtime.startRun({ onEvent: sink }).call({ tool: 'note', args: {} });
    await runtime.callOnce({ tool: 'note', args: {}, onEvent: sink });
    expect(seen.every(([door]) => door === 'in-process')).toBe(true);
    expect(seen.filter(([, type]) => type === 'tool.started')).toHaveLength(2);
  });
});
