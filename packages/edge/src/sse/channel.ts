/**
 * A byte stream the producer writes into and a reader takes out, that tells the producer when
 * the reader has gone. A stream handed across Durable Object RPC never sees its source's
 * `cancel()`, and local workerd never fires `request.signal` on a hang-up: the producer learns the
 * reader left only when a write rejects, which workerd's native `IdentityTransformStream` does (a
 * JS TransformStream only queues). So the channel writes a heartbeat every `heartbeatMs` — an SSE
 * comment, or whitespace in a JSON body — which also keeps proxies from closing an idle stream.
 *
 * Every door's stream is written through a channel, so this is where slow readers are bounded: a
 * write resolves when the reader takes its chunk, so the bytes of writes not yet resolved are
 * exactly what waits for the reader in the Worker's memory. A reader more than `maxQueuedBytes`
 * behind is dropped: its stream errors (the queue is discarded, not sent) and the producer hears
 * `'behind'`. Without this, a reader that stops reading holds every byte written after it stopped.
 */
export interface Channel {
  readonly readable: ReadableStream<Uint8Array>;
  /** Queues bytes; a no-op once the reader has gone, was dropped or the channel is closed. */
  write(bytes: Uint8Array): void;
  close(): void;
  /**
   * Called once, when the reader cancels or the transport breaks (`'gone'`), or when the channel
   * dropped a reader too far behind (`'behind'`); not after `close()`.
   */
  onGone(listener: (why: GoneReason) => void): void;
}

/** Why a channel's reader is no longer written to: it left (`'gone'`) or fell too far behind (`'behind'`). */
export type GoneReason = 'gone' | 'behind';

/** The heartbeat of an SSE stream: a comment line, which readers skip. */
export const sseHeartbeat: Uint8Array = new TextEncoder().encode(': keep-alive\n\n');

/** The heartbeat of a JSON body sent while its value is computed: whitespace, which JSON allows before a value. */
export const jsonHeartbeat: Uint8Array = new TextEncoder().encode('\n');

/** How often a channel writes its heartbeat by default: often enough to notice a hang-up within about a second. */
export const defaultHeartbeatMs = 500;

/**
 * How far behind a reader may fall by default before it is dropped: 1 MiB written and not yet
 * taken. A reader that keeps up has next to nothing queued; one that stops costs at most this
 * (plus the one write that finds it past the bound).
 */
export const defaultMaxQueuedBytes = 1024 * 1024;

/** Options of {@link createChannel}. */
export interface ChannelOptions {
  /** How often to write `heartbeat`, in ms; 0 writes none. Default {@link defaultHeartbeatMs}. */
  heartbeatMs?: number;
  /** Default {@link sseHeartbeat}. */
  heartbeat?: Uint8Array;
  /** Bytes written and not yet taken past which the reader is dropped. Default {@link defaultMaxQueuedBytes}. */
  maxQueuedBytes?: number;
}

/** Makes a {@link Channel}. */
export function createChannel({
  heartbeatMs = defaultHeartbeatMs,
  heartbeat = sseHeartbeat,
  maxQueuedBytes = defaultMaxQueuedBytes,
}: ChannelOptions = {}): Channel {
  const Native = (globalThis as { IdentityTransformStream?: typeof TransformStream }).IdentityTransformStream;
  const { readable, writable } = Native ? new Native() : new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  let open = true;
  let queued = 0;
  const listeners: ((why: GoneReason) => void)[] = [];
  // A heartbeat behind bytes still queued adds nothing: if the reader leaves, that write fails too.
  const timer =
    heartbeatMs > 0 ? setInterval(() => queued === 0 && write(heartbeat), heartbeatMs) : undefined;
  function stop(): boolean {
    if (!open) return false;
    open = false;
    if (timer !== undefined) clearInterval(timer);
    return true;
  }
  function gone(why: GoneReason): void {
    if (stop()) for (const listener of listeners.splice(0)) listener(why);
  }
  const left = () => gone('gone');
  function write(bytes: Uint8Array): void {
    if (!open) return;
    if (queued > maxQueuedBytes) {
      gone('behind');
      // Aborting discards the queued chunks and errors the stream, which a reader sees as a cut
      // connection; an SSE reader resumes from its Last-Event-ID.
      writer
        .abort(new RangeError(`The reader fell more than ${maxQueuedBytes} bytes behind.`))
        .catch(() => {});
      queued = 0;
      return;
    }
    const size = bytes.byteLength;
    queued += size;
    writer.write(bytes).then(() => {
      queued -= size;
    }, left);
  }
  writer.closed.catch(left);
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
