// Results beyond text: a tool returns content parts, with a structured value beside them. Each
// door sends them in its own protocol; the transcript copy a model reads never carries base64.
import { createRuntime, defineTool, withParts } from '@toolctx/core';
import { z } from 'zod';

// A 1×1 red PNG, base64: a real tool would draw the chart.
const pixel =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

export const chart = defineTool({
  name: 'chart',
  description: 'Draws a line chart of a series.',
  inputSchema: z.object({ series: z.array(z.number()) }),
  outputSchema: z.object({ points: z.number() }), // MCP's outputSchema; the value is structuredContent
  execute: ({ series }) =>
    withParts(
      [
        { type: 'text', text: `A chart of ${series.length} points.` },
        { type: 'image', data: pixel, mediaType: 'image/png' },
        {
          type: 'resource-link',
          uri: 'https://example.com/data.csv',
          name: 'data.csv',
          mediaType: 'text/csv',
        },
      ],
      { points: series.length },
    ),
});

const run = createRuntime({ tools: [chart] }).startRun();
const result = await run.call({ tool: 'chart', args: { series: [1, 2, 3] } });
if (result.ok) {
  console.log(result.value); // { points: 3 }
  console.log(result.parts?.map((part) => part.type)); // ['text', 'image', 'resource-link']
  console.log(result.content);
  // A chart of 3 points.
  // [image image/png, 70 B]
  // [resource link data.csv https://example.com/data.csv, text/csv]
}
await run.end();
