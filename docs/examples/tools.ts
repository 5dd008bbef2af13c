// tools.ts — the tools every example serves. Plain toolctx tools: they run unchanged in a page's
// Web Worker, on a Cloudflare Worker, behind MCP and inside the AI SDK.
import { defineTool } from '@toolctx/core';
import { z } from 'zod';

export const countWords = defineTool({
  name: 'count_words',
  description: 'Counts the words in a text.',
  effect: 'read',
  inputSchema: z.object({ text: z.string() }),
  execute: ({ text }) => text.split(/\s+/).filter(Boolean).length,
});

export const summarise = defineTool({
  name: 'summarise',
  description: 'Summarises pages one by one and saves the summary as an artifact.',
  effect: 'write', // it saves an artifact, so a plan-phase run does not see it
  inputSchema: z.object({ pages: z.array(z.string()).min(1) }),
  async execute({ pages }, ctx) {
    const lines: string[] = [];
    for (const [i, page] of pages.entries()) {
      ctx.signal.throwIfAborted(); // Cancel reaches the tool here
      ctx.progress({ message: `Reading page ${i + 1}`, done: i, total: pages.length });
      lines.push(page.slice(0, 80));
    }
    const { ref } = await ctx.artifacts.put({
      kind: 'summary',
      mediaType: 'text/plain',
      data: lines.join('\n'),
    });
    return { ref, pages: pages.length };
  },
});

export const tools = [countWords, summarise];
