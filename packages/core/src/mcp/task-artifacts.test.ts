// A task's result links to the artifacts its call saved, as the same call answered by `tools/call`
// would: through tasks/get (the fast poll and the SDK's handler), a listen's notifications, and
// a result that came within the window. Only for a caller who can read them back.
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import type { ToolExecutionContext } from '../context/types.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { readSse } from '../sse/index.js';
import { answerOf, type JsonRpcAnswer, mcp2026Request } from '../testing/mcp-requests.js';
import { defineTool } from '../tools/define-tool.js';
import { memoryTaskHost } from './memory-tasks.js';
import { serveMcpHttp } from './serve-mcp-http.js';
import { tasksExtension } from './tasks.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Saves a report and a scratch file, deletes the scratch file: only the report is linked. */
const writeReport = async ({ waitMs }: { waitMs: number }, ctx: ToolExecutionContext) => {
  const kept = await ctx.artifacts.put({
    kind: 'report',
    mediaType: 'text/markdown',
    label: 'report.md',
    data: '# Findings',
  });
  const scratch = await ctx.artifacts.put({ kind: 'scratch', mediaType: 'text/plain', data: 'tmp' });
  await ctx.artifacts.delete(scratch.ref);
  await sleep(waitMs);
  return `saved ${kept.ref}`;
};
/** A task at once, whatever it takes: no window to outlast. */
const report = defineTool({
  name: 'report',
  description: 'Writes a report; a task at once.',
  inputSchema: z.object({ waitMs: z.number() }),
  taskSupport: 'required',
  execute: writeReport,
});
/** The same, answered within the task window (the default second) when it ends in it. */
const reportNow = defineTool({
  name: 'report_now',
  description: 'Writes a report; a task only if it outlasts the window.',
  inputSchema: z.object({ waitMs: z.number() }),
  execute: writeReport,
});
/** Saves a draft, then fails: its result is an error, which links nothing, as `tools/call`'s does. */
const broken = defineTool({
  name: 'broken',
  description: 'Saves a draft, then fails; a task at once.',
  inputSchema: z.object({}),
  taskSupport: 'required',
  execute: async (_args, ctx) => {
    await ctx.artifacts.put({ kind: 'draft', mediaType: 'text/plain', data: 'draft' });
    throw new RangeError('the draft would not do');
  },
});
const runtime = createRuntime({ tools: [report, reportNow, broken], artifacts: createMemoryArtifactStore() });
const mcp = serveMcpHttp(runtime, {
  identify: ({ authInfo }) => (authInfo ? { tenant: 't', principal: authInfo.clientId } : undefined),
  tasks: memoryTaskHost(runtime),
  taskPollMs: 50,
});
afterAll(() => mcp.close());

const declaring = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [tasksExtension]: {} } } };
let nextId = 1;
const as = (principal: string | undefined) =>
  principal === undefined ? {} : { authInfo: { token: 'x', clientId: principal, scopes: [] } };

async function send(
  principal: string | undefined,
  method: string,
  params: Record<string, unknown>,
): Promise<JsonRpcAnswer> {
  const request = mcp2026Request(method, params, { meta: declaring, id: nextId++ });
  return answerOf(await mcp.fetch(request, as(principal)));
}

/** A task of `report` that settles after the window, polled until it completed. */
async function settledTask(principal: string | undefined, extra: Record<string, unknown> = {}) {
  const created = await send(principal, 'tools/call', { name: 'report', arguments: { waitMs: 200 } });
  expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
  const taskId = created.result!.taskId as string;
  for (let tries = 0; tries < 100; tries++) {
    const got = await send(principal, 'tasks/get', { taskId, ...extra });
    if (got.result?.status === 'completed')
      return { taskId, result: got.result.result as Record<string, unknown> };
    await sleep(20);
  }
  throw new Error('the task did not complete');
}

const linksOf = (result: Record<string, unknown>) =>
  (result.content as { type: string; uri?: string }[]).filter((block) => block.type === 'resource_link');

describe('a task that saved artifacts', () => {
  it('links to what its call kept, not what it deleted, from tasks/get: the fast poll and the SDK handler alike', async () => {
    const fast = await settledTask('ana');
    const links = linksOf(fast.result);
    expect(links).toEqual([
      {
        type: 'resource_link',
        uri: expect.stringMatching(/^toolctx:\/\/artifacts\//),
        name: 'report.md',
        title: 'report.md',
        description: 'Artifact of kind report.',
        mimeType: 'text/markdown',
        size: 10,
      },
    ]);
    expect(fast.result.content).toContainEqual({ type: 'text', text: expect.stringMatching(/^saved /) });
    // A param the fast path leaves to the SDK's handler: the same answer, links included.
    const sdk = await send('ana', 'tasks/get', { taskId: fast.taskId, note: 'unread' });
    expect(sdk.result!.result).toEqual(fast.result);
  });

  it('whose link its owner reads, and another identity cannot', async () => {
    const { result } = await settledTask('ana');
    const [link] = linksOf(result);
    const read = await send('ana', 'resources/read', { uri: link!.uri });
    expect(read.result).toMatchObject({
      contents: [{ uri: link!.uri, mimeType: 'text/markdown', text: '# Findings' }],
    });
    const stranger = await send('bo', 'resources/read', { uri: link!.uri });
    expect(stranger.error).toMatchObject({ code: -32602 });
  });

  it('links from the result that came within the window, as tools/call does', async () => {
    const now = await send('ana', 'tools/call', { name: 'report_now', arguments: { waitMs: 0 } });
    expect(now.result).toMatchObject({ resultType: 'complete' });
    expect(linksOf(now.result!)).toMatchObject([{ type: 'resource_link', name: 'report.md' }]);
  });

  it('links from the notifications/tasks of a listen', async () => {
    const created = await send('ana', 'tools/call', { name: 'report', arguments: { waitMs: 200 } });
    const taskId = created.result!.taskId as string;
    const hangUp = new AbortController();
    const request = mcp2026Request(
      'subscriptions/listen',
      { notifications: { taskIds: [taskId] } },
      { meta: declaring, id: 'sub-1', signal: hangUp.signal },
    );
    const events = readSse((await mcp.fetch(request, as('ana'))).body!)[Symbol.asyncIterator]();
    try {
      for (let message = 0; message < 10; message++) {
        const event = await events.next();
        const data = (event.value as { data: string }).data;
        if (!data) continue;
        const { method, params } = JSON.parse(data);
        if (method !== 'notifications/tasks' || params.status !== 'completed') continue;
        expect(linksOf(params.result)).toMatchObject([{ type: 'resource_link', name: 'report.md' }]);
        return;
      }
      throw new Error('no completed notification');
    } finally {
      hangUp.abort();
    }
  });

  it('links nothing from a result that is an error, as tools/call does not', async () => {
    const created = await send('ana', 'tools/call', { name: 'broken', arguments: {} });
    const taskId = created.result!.taskId as string;
    for (let tries = 0; tries < 100; tries++) {
      const got = await send('ana', 'tasks/get', { taskId });
      if (got.result?.status === 'working') {
        await sleep(20);
        continue;
      }
      const result = got.result!.result as Record<string, unknown>;
      expect(result).toMatchObject({ isError: true });
      expect(linksOf(result)).toEqual([]);
      return;
    }
    throw new Error('the task did not settle');
  });

  it('links nothing for an anonymous caller, who has no scope to read artifacts in', async () => {
    const { result } = await settledTask(undefined);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^saved /) }]);
    const now = await send(undefined, 'tools/call', { name: 'report_now', arguments: { waitMs: 0 } });
    expect(linksOf(now.result!)).toEqual([]);
  });
});

describe('a task on a server that does not serve artifacts (artifactResources: false)', () => {
  const quiet = serveMcpHttp(runtime, {
    identify: ({ authInfo }) => (authInfo ? { tenant: 't', principal: authInfo.clientId } : undefined),
    tasks: memoryTaskHost(runtime),
    artifactResources: false,
  });
  afterAll(() => quiet.close());
  const ask = async (method: string, params: Record<string, unknown>) =>
    answerOf(await quiet.fetch(mcp2026Request(method, params, { meta: declaring, id: nextId++ }), as('ana')));

  it('links nothing, through the fast poll or the SDK handler, as its tools/call links nothing', async () => {
    const created = await ask('tools/call', { name: 'report', arguments: { waitMs: 200 } });
    const taskId = created.result!.taskId as string;
    for (let tries = 0; tries < 100; tries++) {
      const got = await ask('tasks/get', { taskId });
      if (got.result?.status !== 'completed') {
        await sleep(20);
        continue;
      }
      expect(linksOf(got.result.result as Record<string, unknown>)).toEqual([]);
      const sdk = await ask('tasks/get', { taskId, note: 'unread' });
      expect(linksOf(sdk.result!.result as Record<string, unknown>)).toEqual([]);
      const now = await ask('tools/call', { name: 'report_now', arguments: { waitMs: 0 } });
      expect(linksOf(now.result!)).toEqual([]);
      return;
    }
    throw new Error('the task did not complete');
  });
});
