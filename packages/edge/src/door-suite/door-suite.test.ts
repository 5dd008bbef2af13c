// The door conformance suite through the Worker (in workerd): the HTTP+SSE door (in a run, and
// one-shot), and the MCP door over streamable HTTP with the official SDK client.
import { abortAllDurableObjects, env, runDurableObjectAlarm, SELF } from 'cloudflare:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { mcpDoor } from '@toolctx/core/mcp';
import { describeDoor, mcpDoorClient } from '@toolctx/core/testing';
import { durableObjectDoor, httpCallDoor } from '../run-host/doors.js';
import { httpDoorClient, oneShotDoorClient } from './http-door-client.js';
import type { DoorSuiteEnv } from './test-worker.js';

const fetchWorker = (request: Request) => SELF.fetch(request);

const runs = (env as unknown as DoorSuiteEnv).SUITE_RUNS;

describeDoor('HTTP+SSE through the Worker, runs in Durable Objects', {
  supplies: {
    ...durableObjectDoor,
    artifacts: true,
    credentials: true,
    events: true,
    handles: true,
    asks: true,
    restarts: true,
  },
  // The run's idle alarm is what ends its session: run it now instead of waiting 15 minutes.
  connect: (_tools, { caller }) =>
    httpDoorClient(fetchWorker, caller, {
      endSession: async (runId) => {
        await runDurableObjectAlarm(runs.get(runs.idFromName(runId)));
      },
      restart: () => abortAllDurableObjects(),
    }),
});

// One call without a run: no Durable Object, the call runs in the Worker that took the request.
describeDoor('HTTP+SSE one-shot calls (POST /calls) through the Worker', {
  supplies: { ...httpCallDoor, artifacts: true, credentials: true, events: true },
  connect: async (_tools, { caller }) => oneShotDoorClient(fetchWorker, caller),
});

describeDoor('MCP over streamable HTTP through the Worker', {
  supplies: { ...mcpDoor, artifacts: false, credentials: true, events: false },
  async connect(_tools, { caller }) {
    const client = new Client({ name: 'door-suite', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL('http://door-suite.test/mcp'), {
      fetch: (input, init) => SELF.fetch(new Request(input, init)),
      requestInit: { headers: { authorization: `Bearer ${caller}` } },
    });
    await client.connect(transport);
    return mcpDoorClient(client, {
      close: async () => {
        await transport.terminateSession().catch(() => {});
        await client.close();
      },
    });
  },
});
