// JSON-RPC 2.0 answers an empty batch (`[]`) with one Invalid Request error. The MCP SDK's
// streamable HTTP transports take it as a batch of no requests and answer 202, so `serveMcp` puts
// this guard in front of a transport's `handleRequest` when it is connected to one.

/** The error object JSON-RPC 2.0 answers an empty batch with. */
export const emptyBatchError = {
  jsonrpc: '2.0',
  error: {
    code: -32600,
    message: 'Invalid Request: an empty batch ([]) holds no message; send one JSON-RPC message.',
  },
  id: null,
} as const;

const isEmptyBatch = (body: unknown): boolean => Array.isArray(body) && body.length === 0;
const isEmptyBatchText = (text: string): boolean => /^\s*\[\s*\]\s*$/.test(text);

// A body longer than this is not `[]` (however much white space a client puts around it).
const peekBytes = 64;

interface NodeResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body: string): unknown;
}
type HandleRequest = (request: unknown, ...rest: unknown[]) => Promise<unknown>;

/**
 * Guards `transport.handleRequest` (the SDK's web-standard or Node streamable HTTP transport)
 * against an empty batch: the web-standard one gets a 400 Response, the Node one a 400 written to
 * its `res`, each with {@link emptyBatchError}. A parsed body the host passes is checked as is; a
 * body still to be read is peeked at (its first 64 bytes at most) and handed on whole.
 */
export function guardEmptyBatch(transport: object): void {
  const target = transport as { handleRequest?: HandleRequest };
  if (typeof target.handleRequest !== 'function') return;
  const handle = target.handleRequest.bind(transport);
  target.handleRequest = async (request, ...rest) => {
    if (request instanceof Request) {
      const options = rest[0] as { parsedBody?: unknown } | undefined;
      if (options?.parsedBody !== undefined || request.method !== 'POST' || !request.body) {
        return isEmptyBatch(options?.parsedBody)
          ? Response.json(emptyBatchError, { status: 400 })
          : handle(request, ...rest);
      }
      const peeked = await peek(request);
      if (peeked === 'empty-batch') return Response.json(emptyBatchError, { status: 400 });
      return handle(peeked, ...rest);
    }
    // Node: (req, res, parsedBody?). A body the host parsed is checked; a short one with a declared
    // length is read and handed on parsed, as the host could have done.
    const [res, parsedBody] = rest as [NodeResponse, unknown];
    const node = request as AsyncIterable<Uint8Array> & {
      method?: string;
      headers?: Record<string, unknown>;
    };
    let body = parsedBody;
    if (
      body === undefined &&
      node.method === 'POST' &&
      Number(node.headers?.['content-length']) <= peekBytes
    ) {
      const text = await readAll(node);
      if (isEmptyBatchText(text)) body = [];
      else {
        try {
          body = JSON.parse(text);
        } catch {
          // The transport's own answer to a body that is not JSON.
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              jsonrpc: '2.0',
              error: { code: -32700, message: 'Parse error: Invalid JSON' },
              id: null,
            }),
          );
          return;
        }
      }
    }
    if (isEmptyBatch(body)) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify(emptyBatchError));
      return;
    }
    return handle(request, res, body);
  };
}

/**
 * `'empty-batch'`, or the request to hand on: its first bytes (at most 64) are read, and replayed
 * before the rest of its body, so nothing is read twice or held whole here.
 */
async function peek(request: Request): Promise<Request | 'empty-batch'> {
  const reader = (request.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let done = false;
  while (length <= peekBytes) {
    const next = await reader.read();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.byteLength;
  }
  if (done && isEmptyBatchText(new TextDecoder().decode(concat(chunks, length)))) return 'empty-batch';
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (done) controller.close();
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Request(request, { body, duplex: 'half' } as RequestInit);
}

async function readAll(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    length += chunk.byteLength;
  }
  return new TextDecoder().decode(concat(chunks, length));
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
