/**
 * A byte stream the producer writes into and a reader takes out, that tells the producer when
 * the reader has gone. A stream handed across Durable Object RPC never sees its source's
 * `cancel()`, and local workerd never fires `request.signal` on a hang-up: the producer learns the
 * reader left only when a write rejects, which workerd's native `IdentityTransformStream` does (a
 * JS TransformStream only queues). So the channel writes a heartbeat every `heartbeatMs` — an SSE
 * comment, or whitespace in a JSON body — which also keeps proxies from closing an idle stream.
 *
 * Every door's stream is written through a channel, so this is where slow readers are bounded. The
 * channel keeps what its reader has not taken in a queue of its own and hands the stream one write
 * at a time (pieces coalesced up to 64 KiB): the stream's write resolves when the reader takes
 * the piece, so the queue is exactly what waits for the reader in memory. A reader more than
 * `maxQueuedBytes` behind that has taken nothing for 100 ms is dropped (while it takes one write
 * larger than the bound, only what waits behind that write counts): the queue is let go, the stream ends once the reader takes
 * the piece in flight, and the producer hears `'behind'`; an SSE reader resumes from its
 * Last-Event-ID. The stream ends rather than errors because an error does not cross Durable Object
 * RPC (the Worker's response would stay open, and its reader would wait forever), and because a
 * reader that stalled for good then holds one piece, not the queue. Across RPC nothing piles up
 * on the Worker's side: the Worker takes the next piece only once its reader took the last.
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
  /**
   * What the stream starts with, before anything written (a resumed reader's missed events):
   * pulled a piece at a time as the reader takes them, so however long, it is never counted as
   * the reader being behind, and a dropped reader lets go of what it had not pulled yet.
   */
  backlog?: Iterator<Uint8Array>;
}

/**
 * How long a reader past the bound may go without taking anything before it is dropped: a burst
 * (a 3 MiB report, then another, in one turn) is more than the bound for a moment even for a
 * reader that keeps up, and workerd's clock does not move within a turn, so a burst never drops.
 */
const takeGraceMs = 100;

/** The most bytes the channel hands the stream in one write when it coalesces queued pieces. */
const pieceBytes = 64 * 1024;

/** Makes a {@link Channel}. */
export function createChannel({
  heartbeatMs = defaultHeartbeatMs,
  heartbeat = sseHeartbeat,
  maxQueuedBytes = defaultMaxQueuedBytes,
  backlog,
}: ChannelOptions = {}): Channel {
  const Native = (globalThis as { IdentityTransformStream?: typeof TransformStream }).IdentityTransformStream;
  const { readable, writable } = Native ? new Native() : new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  /** Whether writes are taken: until the reader leaves, is dropped, or `close()`. */
  let open = true;
  /** Ends the stream once the queue is empty: after `close()` or a drop. */
  let ending = false;
  let writing = false;
  /** Whether the last piece taken came from the backlog, which is not counted as the reader being behind. */
  let fromBacklog = false;
  let queue: Uint8Array[] = [];
  /** Bytes written that the reader has not taken: the queue, and the piece in flight if it came from there. */
  let queued = 0;
  /** The counted bytes of the piece in flight: one write larger than the bound is not the reader being behind. */
  let inFlight = 0;
  /** When the reader last took a piece, or last had nothing to take. */
  let takenAt = Date.now();
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
    if (!stop()) return;
    for (const piece of queue) queued -= piece.byteLength;
    queue = [];
    backlog = undefined;
    if (why === 'behind') end();
    for (const listener of listeners.splice(0)) listener(why);
  }
  const left = () => gone('gone');
  function end(): void {
    ending = true;
    pump();
  }
  function pump(): void {
    if (writing) return;
    const piece = take();
    const counted = piece && !fromBacklog ? piece.byteLength : 0;
    if (!piece) {
      if (ending) writer.close().catch(() => {});
      return;
    }
    writing = true;
    inFlight = counted;
    writer.write(piece).then(() => {
      takenAt = Date.now();
      queued -= counted;
      inFlight = 0;
      writing = false;
      pump();
    }, left);
  }
  /**
   * The next piece: from the backlog while it lasts, else the queue's first; with what follows it
   * while the piece stays within {@link pieceBytes}.
   */
  function take(): Uint8Array | undefined {
    const parts: Uint8Array[] = [];
    let size = 0;
    fromBacklog = true;
    while (backlog && size < pieceBytes) {
      const next = backlog.next();
      if (next.done) backlog = undefined;
      else {
        parts.push(next.value);
        size += next.value.byteLength;
      }
    }
    if (parts.length === 0) {
      fromBacklog = false;
      if (queue.length === 0) return undefined;
      parts.push(queue.shift()!);
      size = parts[0]!.byteLength;
      while (queue.length > 0 && size + queue[0]!.byteLength <= pieceBytes) {
        parts.push(queue.shift()!);
        size += parts.at(-1)!.byteLength;
      }
    }
    if (parts.length === 1) return parts[0];
    const piece = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      piece.set(part, at);
      at += part.byteLength;
    }
    return piece;
  }
  function write(bytes: Uint8Array): void {
    if (!open) return;
    // A piece larger than the bound in flight is being taken, however long that takes on a busy
    // machine: only what waits behind it counts then.
    const behind = inFlight > maxQueuedBytes ? queued - inFlight : queued;
    if (behind > maxQueuedBytes && Date.now() - takenAt > takeGraceMs) {
      gone('behind');
      return;
    }
    if (queued === 0) takenAt = Date.now();
    queued += bytes.byteLength;
    queue.push(bytes);
    pump();
  }
  writer.closed.catch(left);
  pump();
  return {
    readable,
    write,
    close() {
      if (!stop()) return;
      listeners.length = 0;
      end();
    },
    onGone(listener) {
      if (open) listeners.push(listener);
    },
  };
}
