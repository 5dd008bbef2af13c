// The door conformance suite through MCP in this process, with the official SDK over
// InMemoryTransport: the server side (serveMcp) and the client side (mcpTools wrapping it).
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createRuntime } from '../runtime/create-runtime.js';
import { describeDoor } from '../testing/describe-door.js';
import { doorSuiteCredentials, doorSuiteTenant } from '../testing/door-suite-tools.js';
import { mcpDoorClient } from '../testing/mcp-door-client.js';
import { runDoorClient } from '../testing/run-door-client.js';
import type { AnyTool } from '../tools/define-tool.js';
import { mcpDoor } from './door.js';
import { mcpTools } from './mcp-tools.js';
import { serveMcp } from './serve-mcp.js';

/** An official client connected to `serveMcp` over a linked in-memory pair, calling as `caller`. */
async function connectedClient(tools: readonly AnyTool[], caller: string) {
  const runtime = createRuntime({ tools, credentials: doorSuiteCredentials() });
  const server = serveMcp(runtime, { identify: () => ({ tenant: doorSuiteTenant, principal: caller }) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'door-suite', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

describeDoor('MCP, in-process', {
  supplies: { ...mcpDoor, artifacts: false, credentials: true, events: false },
  async connect(tools, { caller }) {
    const { client, close } = await connectedClient(tools, caller);
    return mcpDoorClient(client, { close });
  },
});

// The client side: the remote tools as local ones. What a tool's context holds is the remote
// door's (MCP), and only progress crosses back, so the local run's events are not the tool's.
describeDoor('MCP client (mcpTools)', {
  supplies: { ...mcpDoor, name: 'mcp-client', artifacts: false, credentials: true, events: false },
  async connect(tools, { caller }) {
    const { client, close } = await connectedClient(tools, caller);
    const local = createRuntime({ tools: await mcpTools(client) });
    const run = local.startRun({ identity: { tenant: doorSuiteTenant, principal: caller } });
    const door = runDoorClient(run, { close });
    return { ...door, call: async (...args) => ({ ...(await door.call(...args)), events: [] }) };
  },
});
