// MCP both ways: serve toolctx tools to any MCP client, and use a remote MCP server's tools as
// local toolctx tools (progress and cancel cross in both directions).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createRuntime } from '@toolctx/core';
import { mcpTools, serveMcp } from '@toolctx/core/mcp';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { tools } from './tools.js';

// Serve: an MCP server over stdio (any transport of the official SDK works); `summarise` keeps
// its artifacts in memory for as long as the process runs.
const served = createRuntime({ tools, artifacts: createMemoryArtifactStore() });
await serveMcp(served, { serverInfo: { name: 'my-tools', version: '1.0.0' } }).connect(
  new StdioServerTransport(),
);

// Use: a remote server's tools, prefixed, beside your own.
const client = new Client({ name: 'my-agent', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL('https://tools.example.com/mcp')));
const runtime = createRuntime({
  tools: [...tools, ...(await mcpTools(client, { prefix: 'remote_' }))],
  artifacts: createMemoryArtifactStore(),
});
// stderr: this process's stdout carries the MCP messages of the server above.
console.error(runtime.listTools().map((tool) => tool.name));
