// Scenario server-sse-polling (SEP-1699) needs a server that closes a call's SSE stream while the
// call goes on, so the client resumes with Last-Event-ID. That is the transport's to do
// (`closeSSEStream(requestId)`), not a tool's: both set-ups close the stream of each
// `test_reconnection` call as it arrives, by this one function over the server's transport.
import type { JSONRPCMessage, McpServer, RequestId } from '@modelcontextprotocol/server';

interface ClosableTransport {
  onmessage?: (message: JSONRPCMessage, extra?: never) => void;
  start(): Promise<void>;
  closeSSEStream?(requestId: RequestId): void;
}

export function closeReconnectionStreams(server: McpServer): McpServer {
  const connect = server.connect.bind(server);
  server.connect = (transport) => {
    const closable = transport as unknown as ClosableTransport;
    // The server sets `onmessage` before it starts the transport: wrapped here, it sees each call.
    const start = closable.start.bind(closable);
    closable.start = () => {
      const onmessage = closable.onmessage;
      closable.onmessage = (message, extra) => {
        onmessage?.(message, extra);
        if ('method' in message && message.method === 'tools/call' && 'id' in message) {
          const { id } = message;
          if ((message.params as { name?: unknown })?.name === 'test_reconnection')
            setTimeout(() => closable.closeSSEStream?.(id), 50);
        }
      };
      return start();
    };
    return connect(transport);
  };
  return server;
}
