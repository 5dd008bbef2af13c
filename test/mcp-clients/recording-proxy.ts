// A loopback HTTP proxy in front of an MCP server that records the JSON-RPC messages both ways,
// so a test can see what a real client sent and received on the wire when the client itself does
// not print it (the Inspector CLI shows no progress) or the server does not log it.
import { createServer, request as forward, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One JSON-RPC message seen on the wire, with the HTTP status of the exchange it belonged to. */
export interface WireMessage {
  direction: 'to-server' | 'to-client';
  status: number;
  message: { id?: string | number; method?: string; params?: Record<string, unknown>; result?: unknown };
}

export interface RecordingProxy {
  url: string;
  messages: WireMessage[];
  stop(): Promise<void>;
}

/** Starts a proxy for `target` (an origin such as `http://127.0.0.1:8787`) on a free loopback port. */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const messages: WireMessage[] = [];
  const server = createServer((incoming, outgoing) => {
    const body: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => body.push(chunk));
    incoming.on('end', () => {
      const sent = Buffer.concat(body);
      const headers: IncomingHttpHeaders = { ...incoming.headers, host: upstream.host };
      const proxied = forward(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: incoming.url,
          method: incoming.method,
          headers,
        },
        (answer) => {
          const status = answer.statusCode ?? 0;
          for (const message of jsonMessages(sent.toString('utf8')))
            messages.push({ direction: 'to-server', status, message });
          outgoing.writeHead(status, answer.headers);
          // An SSE stream may stay open for the whole call: record each event once it is complete.
          let received = '';
          const record = (text: string) => {
            for (const message of jsonMessages(text))
              messages.push({ direction: 'to-client', status, message });
          };
          answer.on('data', (chunk: Buffer) => {
            received += chunk.toString('utf8');
            const complete = received.lastIndexOf('\n\n');
            if (complete >= 0 && /^(event|data|id|retry):/m.test(received)) {
              record(received.slice(0, complete));
              received = received.slice(complete + 2);
            }
            outgoing.write(chunk);
          });
          answer.on('end', () => {
            record(received);
            outgoing.end();
          });
        },
      );
      proxied.on('error', () => outgoing.destroy());
      outgoing.on('close', () => proxied.destroy());
      proxied.end(sent);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    messages,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The JSON-RPC messages of a body: plain JSON (one or a batch) or the `data:` lines of an SSE stream. */
function jsonMessages(text: string): WireMessage['message'][] {
  const chunks = /^\s*[[{]/.test(text)
    ? [text]
    : [...text.matchAll(/^data: ?(.*)$/gm)].map((match) => match[1]!).filter((data) => data.trim());
  return chunks.flatMap((chunk) => {
    try {
      const parsed = JSON.parse(chunk) as WireMessage['message'] | WireMessage['message'][];
      return Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      return [];
    }
  });
}
