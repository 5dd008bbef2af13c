// The demo's tools served over MCP and used again as local tools (mcpTools), as an agent that
// reaches the demo through an MCP client would: what each tool may do survives the trip, so a
// plan-phase run is offered exactly the demo's read tools.
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createRuntime } from '@toolctx/core';
import { mcpTools, serveMcp } from '@toolctx/core/mcp';
import { createMemoryApprovalPort, createMemoryArtifactStore, staticCredentials } from '@toolctx/core/memory';
import { describe, expect, it } from 'vitest';
import { DEMO_CREDENTIAL, demoTools } from '../../apps/demo/src/tools.js';

async function demoOverMcp() {
  const runtime = createRuntime({
    tools: demoTools,
    artifacts: createMemoryArtifactStore(),
    credentials: staticCredentials({ [DEMO_CREDENTIAL]: 'test-key' }),
    approval: createMemoryApprovalPort(),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await serveMcp(runtime).connect(serverSide);
  const client = new Client({ name: 'demo-agent', version: '1.0.0' });
  await client.connect(clientSide);
  return mcpTools(client);
}

describe("the demo's tools through MCP", () => {
  it('come back with the effect each was defined with', async () => {
    const local = await demoOverMcp();
    expect(local.map((tool) => [tool.name, tool.effect])).toEqual(
      demoTools.map((tool) => [tool.name, tool.effect]),
    );
  });

  it('offer a plan-phase run every read tool of the demo', async () => {
    const reads = demoTools.filter((tool) => tool.effect === 'read').map((tool) => tool.name);
    expect(reads.length).toBeGreaterThan(0);
    const run = createRuntime({ tools: await demoOverMcp() }).startRun({ phase: 'plan' });
    expect(run.listTools().map((tool) => tool.name)).toEqual(reads);
  });
});
