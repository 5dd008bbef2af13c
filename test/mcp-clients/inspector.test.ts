// The MCP Inspector's CLI mode (a real MCP client, on the Node 22 of the conformance runner
// install) against the Worker's /mcp under `wrangler dev`. The CLI prints the result only: it
// never asks for progress itself and prints none, so the progress of a call made with a
// `progressToken` is read off the wire through a recording proxy.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRunner, inspectorCli, node22 } from '../conformance/runner.js';
import { budget } from '../slowdown.js';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { type RecordingProxy, startRecordingProxy } from './recording-proxy.js';

const run = promisify(execFile);
let dev: WranglerDev;
let proxy: RecordingProxy;
let home: string;

beforeAll(async () => {
  await ensureRunner();
  dev = await startWranglerDev({
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    config: 'conformance/worker/wrangler.jsonc',
  });
  proxy = await startRecordingProxy(dev.url);
  // The CLI keeps a catalog and client settings under ~/.mcp-inspector; not in the user's home.
  home = await mkdtemp(join(tmpdir(), 'toolctx-inspector-'));
}, 180_000);

afterAll(async () => {
  await proxy?.stop();
  await dev?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

async function inspector(...args: string[]): Promise<{ result: Record<string, unknown> }> {
  const { stdout } = await run(
    node22,
    [inspectorCli, '--cli', `${proxy.url}/mcp`, '--transport', 'http', '--format', 'json', ...args],
    { env: { ...process.env, HOME: home }, timeout: budget(30_000) },
  );
  return JSON.parse(stdout) as { result: Record<string, unknown> };
}

describe("the MCP Inspector CLI against the Worker's /mcp", () => {
  it('lists the tools with their schemas and annotations', async () => {
    const { result } = await inspector('--method', 'tools/list');
    const tools = result.tools as { name: string; inputSchema: unknown; annotations?: unknown }[];
    expect(tools.map((tool) => tool.name)).toEqual([
      'test_simple_text',
      'test_error_handling',
      'test_tool_with_progress',
      'test_tool_with_logging',
      'json_schema_2020_12_tool',
      'test_image_content',
      'test_audio_content',
      'test_embedded_resource',
      'test_multiple_content_types',
      'test_elicitation',
      'test_elicitation_sep1034_defaults',
      'test_elicitation_sep1330_enums',
      'test_reconnection',
      'test_input_required_result_elicitation',
      'test_input_required_result_request_state',
      'test_input_required_result_multi_round',
      'test_input_required_result_tampered_state',
      'greet',
      'slow_compute',
      'failing_job',
      'protocol_error_job',
      'confirm_delete',
      'multi_input',
      'test_tool_with_task',
      'test_custom_header',
    ]);
    expect(tools[2]).toMatchObject({
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
  });

  it('calls a tool with arguments and prints its text result', async () => {
    const { result } = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'json_schema_2020_12_tool',
      '--tool-arg',
      'name=Ada',
    );
    expect(result).toEqual({ content: [{ type: 'text', text: 'Hello, Ada.' }] });
  });

  it('gets the result of a call that outlasts its task window, never a task: the CLI does not declare the Tasks extension', async () => {
    const { result } = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'slow_compute',
      '--tool-arg',
      'seconds=1',
    );
    expect(result).not.toHaveProperty('taskId');
    expect(result.content).toEqual([{ type: 'text', text: 'Computed result after 1s' }]);
  });

  it('calls a tool that reports progress: the result is printed and the progress reaches the client in order', async () => {
    const { result } = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'test_tool_with_progress',
      '--tool-metadata',
      'progressToken="inspector-1"',
    );
    expect(result).toEqual({ content: [{ type: 'text', text: 'Progress reported: 0, 50 and 100 of 100.' }] });
    const progress = proxy.messages
      .filter((seen) => seen.direction === 'to-client' && seen.message.method === 'notifications/progress')
      .map((seen) => seen.message.params);
    expect(progress).toEqual([
      { progressToken: 'inspector-1', progress: 0, total: 100 },
      { progressToken: 'inspector-1', progress: 50, total: 100 },
      { progressToken: 'inspector-1', progress: 100, total: 100 },
    ]);
  });
});
