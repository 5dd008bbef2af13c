/**
 * A byte stream the producer writes into and a reader takes out, that tells the producer when
 * the reader has gone. A stream handed across Durable Object RPC never sees its source's
 * `cancel()`, and local workerd never fires `request.signal` on a hang-up: the producer learns the
 * reader left only when a write rejects, which workerd's native `IdentityTransformStream` does (a
 * JS TransformStream only queues). So the channel writes a heartbeat every `heartbeatMs` — an SSE
 * comment, or whitespace in a JSON body — which also keeps proxies from closing an idle stream.
 */
export interface Channel {
  readonly readable: ReadableStream<Uint8Array>;
  /** Queues bytes; a no-op once the reader has gone or the channel is closed. */
  write(bytes: Uint8Array): void;
  close(): void;
  /** Called once, when the reader cancels or the transport breaks; not after `close()`. */
  onGone(listener: () => void): void;
}

/** The heartbeat of an SSE stream: a comment line, which readers skip. */
export const sseHeartbeat: Uint8Array = new TextEncoder().encode(': keep-alive\n\n');

/** The heartbeat of a JSON body sent while its value is computed: whitespace, which JSON allows before a value. */
export const jsonHeartbeat: Uint8Array = new TextEncoder().encode('\n');

/** How often a channel writes its heartbeat by default: often enough to notice a hang-up within about a second. */
export const defaultHeartbeatMs = 500;

/** Makes a {@link Channel}; `heartbeatMs` 0 writes no heartbeat. */
export function createChannel(
  heartbeatMs = defaultHeartbeatMs,
  heartbeat: Uint8Array = sseHeartbeat,
): Channel {
  const Native = (globalThis as { IdentityTransformStream?: typeof TransformStream }).IdentityTransformStream;
  const { readable, writable } = Native ? new Native() : new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  let open = true;
  const listeners: (() => void)[] = [];
  const timer = heartbeatMs > 0 ? setInterval(() => write(heartbeat), heartbeatMs) : undefined;
  function stop(): boolean {
    if (!open) return false;
    open = false;
    if (timer !== undefined) clearInterval(timer);
    return true;
  }
  function gone(): void {
    if (stop()) for (const listener of listeners.splice(0)) listener();
  }
  function write(bytes: Uint8Array): void {
    if (open) writer.write(bytes).catch(gone);
  }
  writer.closed.catch(gone);
  return {
    readable,
    write,
    close() {
      if (!stop()) return;
      listeners.length = 0;
      writer.close().catch(() => {});
    },
    onGone(listener) {
      if (open) listeners.push(listener);
    },
  };
}
