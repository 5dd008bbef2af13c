// mcpTools against the reference MCP server, @modelcontextprotocol/server-everything, over
// streamable HTTP (over stdio the SDK often loses a call's last progress notification; over HTTP
// all arrive). It runs on the conformance runner's Node 22; a recording proxy shows what reached it.
import { type ChildProcess, spawn } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type AnyTool, createRuntime, type ToolEvent } from '@toolctx/core';
import { mcpTools } from '@toolctx/core/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRunner, node22, serverEverything } from '../conformance/runner.js';
import { budget } from '../slowdown.js';
import { freePort } from '../wrangler-dev.js';
import { type RecordingProxy, startRecordingProxy } from './recording-proxy.js';

let server: ChildProcess;
let proxy: RecordingProxy;
let client: Client;
let tools: AnyTool[];

beforeAll(async () => {
  await ensureRunner();
  const port = await freePort();
  server = spawn(node22, [serverEverything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    server.stderr!.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes(`listening on port ${port}`)) resolve();
    });
    server.once('exit', (code) => reject(new Error(`server-everything exited (${code}):\n${output}`)));
  });
  proxy = await startRecordingProxy(`http://127.0.0.1:${port}`);
  client = new Client({ name: 'toolctx-mcp-tools', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`)));
  tools = await mcpTools(client);
}, 180_000);

afterAll(async () => {
  await client?.close();
  await proxy?.stop();
  server?.kill();
});

function recordedRun() {
  const events: ToolEvent[] = [];
  const run = createRuntime({ tools }).startRun();
  run.events.subscribe((event) => void events.push(event));
  return { run, events };
}

const until = async (check: () => boolean) => {
  const limit = budget(4000);
  for (const started = performance.now(); performance.now() - started < limit && !check(); )
    await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
};

const base64Image = /[A-Za-z0-9+/]{200,}={0,2}/;

describe('mcpTools against server-everything', () => {
  it("wraps the server's tools with their titles and read effect", () => {
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'echo',
        'trigger-long-running-operation',
        'get-tiny-image',
        'get-resource-reference',
      ]),
    );
    expect(tools.find((tool) => tool.name === 'trigger-long-running-operation')).toMatchObject({
      title: 'Trigger Long Running Operation Tool',
      effect: 'read',
    });
  });

  it('passes every progress step of the long-running operation to the run, in order', async () => {
    const { run, events } = recordedRun();
    const result = await run.call({
      tool: 'trigger-long-running-operation',
      args: { duration: 0.5, steps: 5 },
      toolCallId: 'long-1',
    });
    expect(result).toMatchObject({
      ok: true,
      value: 'Long running operation completed. Duration: 0.5 seconds, Steps: 5.',
    });
    const progress = events
      .filter((event) => event.type === 'tool.progress')
      .map((event) => (event.data as { payload: unknown }).payload);
    expect(progress).toEqual([1, 2, 3, 4, 5].map((done) => ({ done, total: 5 })));
  });

  it('cancels the long-running operation on the server when the run aborts the call', async () => {
    const { run, events } = recordedRun();
    const controller = new AbortController();
    const started = Date.now();
    const call = run.call({
      tool: 'trigger-long-running-operation',
      args: { duration: 30, steps: 60 },
      signal: controller.signal,
    });
    await until(() => events.some((event) => event.type === 'tool.progress'));
    controller.abort();
    expect(await call).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(Date.now() - started).toBeLessThan(5000);
    const request = proxy.messages.find(
      (seen) =>
        seen.direction === 'to-server' &&
        seen.message.method === 'tools/call' &&
        (seen.message.params as { arguments?: { duration?: number } }).arguments?.duration === 30,
    );
    expect(request).toBeDefined();
    await until(() =>
      proxy.messages.some(
        (seen) =>
          seen.direction === 'to-server' &&
          seen.message.method === 'notifications/cancelled' &&
          seen.message.params?.requestId === request!.message.id,
      ),
    );
    const cancelled = proxy.messages.find((seen) => seen.message.method === 'notifications/cancelled')!;
    expect(cancelled.status, 'the server accepted the notification').toBe(202);
  });

  it('returns the image as an image part, with no base64 in the transcript', async () => {
    const { run } = recordedRun();
    const result = await run.call({ tool: 'get-tiny-image', args: {} });
    if (!result.ok) throw new Error(result.error.message);
    const image = result.parts?.find((part) => part.type === 'image');
    expect(image, 'the PNG reaches the caller').toMatchObject({ mediaType: 'image/png' });
    expect(image && 'data' in image ? image.data : '').toMatch(base64Image);
    expect(result.content, 'the model reads a note, not the PNG').not.toMatch(base64Image);
    expect(result.content).toMatch(/\[image image\/png, [\d.]+ KB\]/);
  });

  it('returns the embedded resource as a resource part', async () => {
    const { run } = recordedRun();
    const result = await run.call({
      tool: 'get-resource-reference',
      args: { resourceType: 'Text', resourceId: 1 },
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.parts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'resource', uri: 'demo://resource/dynamic/text/1' }),
      ]),
    );
    expect(result.content).toContain('[resource demo://resource/dynamic/text/1');
  });
});
