/**
 * A byte stream the producer writes into and a reader takes out, that tells the producer when
 * the reader has gone. A stream handed across Durable Object RPC never sees its source's
 * `cancel()`: the producer learns the reader left only when a write rejects, which workerd's
 * native `IdentityTransformStream` does (a JS TransformStream only queues). So the channel writes
 * a comment line every `heartbeatMs`, which also keeps proxies from closing an idle stream.
 */
export interface Channel {
  readonly readable: ReadableStream<Uint8Array>;
  /** Queues bytes; a no-op once the reader has gone or the channel is closed. */
  write(bytes: Uint8Array): void;
  close(): void;
  /** Called once, when the reader cancels or the transport breaks; not after `close()`. */
  onGone(listener: () => void): void;
}

const heartbeat = new TextEncoder().encode(': keep-alive\n\n');

/** Makes a {@link Channel}; `heartbeatMs` 0 writes no heartbeat. */
export function createChannel(heartbeatMs = 15_000): Channel {
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
