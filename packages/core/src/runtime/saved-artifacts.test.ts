import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createMemoryApprovalPort } from '../approval/memory-approval-port.js';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import type { ArtifactMeta } from '../artifacts/types.js';
import type { ToolResult } from '../context/types.js';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';
import { SavedArtifacts } from './saved-artifacts.js';

const identity = { tenant: 'acme', principal: 'ana' };

const meta = (ref: string): ArtifactMeta => ({
  ref,
  kind: 'part',
  mediaType: 'text/plain',
  bytes: 1,
  createdAt: 0,
  digest: 'sha256-x',
  origin: { toolCallId: 'x' },
  encoding: 'text',
});
const refsOf = (saved: { ref: string }[] | undefined) => saved?.map(({ ref }) => ref);
const open = () => true;
const settled = () => false;

describe('SavedArtifacts', () => {
  it('names the first 20 still there, when a call saved more and deleted some of the first', () => {
    const saved = new SavedArtifacts();
    for (let i = 0; i < 25; i++) saved.note('c', meta(`a${i}`));
    for (let i = 0; i < 5; i++) saved.note('c', `a${i}`);
    expect(refsOf(saved.take('c', undefined, open))).toEqual(
      Array.from({ length: 20 }, (_, i) => `a${i + 5}`),
    );
  });

  it('names no artifact another call deleted, a child or not', () => {
    const saved = new SavedArtifacts();
    saved.note('parent', meta('a'));
    saved.note('parent', meta('b'));
    saved.note('other', meta('c'));
    saved.note('child', 'a');
    saved.note('child', 'c');
    expect(refsOf(saved.take('parent', undefined, open))).toEqual(['b']);
    expect(saved.take('other', undefined, open)).toBeUndefined();
  });

  it("gives a child's to its parent in flight, and holds nothing for a parent that settled", () => {
    const saved = new SavedArtifacts();
    saved.note('child', meta('a'));
    expect(refsOf(saved.take('child', 'parent', open))).toEqual(['a']);
    saved.note('late', meta('b'));
    expect(refsOf(saved.take('late', 'parent', settled))).toEqual(['b']);
    // The parent's record, filed now, names only what was saved while it was in flight.
    expect(refsOf(saved.take('parent', undefined, open))).toEqual(['a']);
    expect(saved.held).toBe(0);
  });
});

describe("a run's call handles name the artifacts their calls saved", () => {
  it('names, once settled, the artifacts a call and its child calls saved and kept: the first 20, oldest first', async () => {
    let release = () => {};
    const save = defineTool({
      name: 'save',
      description: 'Saves n parts, deleting the first when asked.',
      inputSchema: z.object({ n: z.number(), drop: z.boolean() }),
      execute: async ({ n, drop }, ctx) => {
        const refs: string[] = [];
        for (let i = 0; i < n; i++)
          refs.push((await ctx.artifacts.put({ kind: 'part', mediaType: 'text/plain', data: `p${i}` })).ref);
        if (drop) await ctx.artifacts.delete(refs[0]!);
        return refs;
      },
    });
    const parent = defineTool({
      name: 'parent',
      description: 'Saves a summary, has a child save two parts and drop one, then waits.',
      inputSchema: z.object({}),
      execute: async (_args, ctx) => {
        const summary = await ctx.artifacts.put({
          kind: 'summary',
          mediaType: 'text/markdown',
          label: 'summary.md',
          data: '# ok',
        });
        const child = await ctx.tools!.call({ tool: 'save', args: { n: 2, drop: true } });
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { summary: summary.ref, child };
      },
    });
    const events: ToolEvent[] = [];
    const runtime = createRuntime({
      tools: [save, parent],
      artifacts: createMemoryArtifactStore(),
      sinks: [(event) => void events.push(event)],
    });
    const run = runtime.startRun({ runId: 'run_saved', identity });
    const called = run.call({ tool: 'parent', args: {}, toolCallId: 'p' });
    await vi.waitFor(() =>
      expect(events.some((event) => event.type === 'tool.finished' && event.parentId === 'p')).toBe(true),
    );
    // Working: nothing named yet. The child settled: it names its own part.
    expect(run.callStatus('p')?.artifacts).toBeUndefined();
    const childId = events.find((event) => event.type === 'tool.started' && event.parentId === 'p')!.callId!;
    const parts = events.filter((event) => event.type === 'artifact.put' && event.callId === childId);
    const second = (parts[1]!.data as { ref: string }).ref;
    expect(run.callStatus(childId)?.artifacts).toEqual([
      { ref: second, kind: 'part', mediaType: 'text/plain', bytes: 2 },
    ]);
    release();
    const result = await called;
    if (!result.ok) throw new Error('expected a result');
    const { summary } = result.value as { summary: string };
    expect(run.callStatus('p')?.artifacts).toEqual([
      { ref: summary, kind: 'summary', mediaType: 'text/markdown', bytes: 4, label: 'summary.md' },
      { ref: second, kind: 'part', mediaType: 'text/plain', bytes: 2 },
    ]);

    const many = await run.call({ tool: 'save', args: { n: 25, drop: false }, toolCallId: 'many' });
    if (!many.ok) throw new Error('expected a result');
    expect(run.callStatus('many')?.artifacts?.map(({ ref }) => ref)).toEqual(
      (many.value as string[]).slice(0, 20),
    );
    // A call that saved nothing names nothing.
    await run.call({ tool: 'save', args: { n: 0, drop: false }, toolCallId: 'none' });
    expect(run.callStatus('none')).not.toHaveProperty('artifacts');
  });

  // Found by review: a child decided after its parent settled left its saves for the parent, and
  // a later call under the parent's id (free once the memory store forgot it) named them.
  it("gives a child's artifacts to no parent that settled before it, nor to a later call under that parent's id", async () => {
    const publish = defineTool({
      name: 'publish',
      description: 'Saves a page, after approval.',
      inputSchema: z.object({}),
      effect: 'write',
      needsApproval: true,
      execute: async (_args, ctx) =>
        (await ctx.artifacts.put({ kind: 'page', mediaType: 'text/html', data: '<p>' })).ref,
    });
    const parent = defineTool({
      name: 'parent',
      description: 'Asks a child to publish and answers what it came to.',
      inputSchema: z.object({}),
      execute: async (_args, ctx) => ctx.tools!.call({ tool: 'publish', args: {} }),
    });
    const idle = defineTool({
      name: 'idle',
      description: 'Saves nothing, after a turn (so its record is filed as it settles).',
      inputSchema: z.object({}),
      execute: async () => {
        await new Promise((resolve) => setTimeout(resolve, 0));
        return 'ok';
      },
    });
    const quick = defineTool({
      name: 'quick',
      description: 'Answers at once.',
      inputSchema: z.object({}),
      execute: () => 'ok',
    });
    const run = createRuntime({
      tools: [parent, publish, idle, quick],
      artifacts: createMemoryArtifactStore(),
      approval: createMemoryApprovalPort(),
    }).startRun({ runId: 'run_late_child', identity });
    const result = await run.call({ tool: 'parent', args: {}, toolCallId: 'p' });
    const inner = (result.ok ? result.value : undefined) as ToolResult | undefined;
    const decided = run.decide(String(inner && !inner.ok && inner.error.details?.approvalId), {
      approved: true,
    });
    if (!decided.taken) throw new Error('expected the approval to be taken');
    const page = await decided.result;
    expect(run.callStatus(decided.toolCallId)?.artifacts).toMatchObject([
      { ref: page.ok && page.value, kind: 'page' },
    ]);
    expect(run.callStatus('p')).not.toHaveProperty('artifacts');
    // The memory call store keeps the newest 1,000 settled records: 'p' is forgotten, its id free.
    for (let i = 0; i < 1001; i++) await run.call({ tool: 'quick', args: {}, toolCallId: `q${i}` });
    expect(run.callStatus('p')).toBeUndefined();
    await run.call({ tool: 'idle', args: {}, toolCallId: 'p' });
    expect(run.callStatus('p')).not.toHaveProperty('artifacts');
  });
});
