import { type ErrorInfo, ToolctxError, toErrorInfo } from '../errors.js';

/**
 * When a cleanup runs: at the end of the call, the run, the session, or when the host shuts down.
 * Each door honours some of these (a stateless HTTP door has no session end, for example).
 */
export type TeardownScope = 'call' | 'run' | 'session' | 'shutdown';

/**
 * Every teardown scope, shortest-lived first.
 */
export const TEARDOWN_SCOPES: readonly TeardownScope[] = Object.freeze([
  'call',
  'run',
  'session',
  'shutdown',
]);

/** One cleanup, registered for exactly one (tool, scope, key). */
export interface TeardownRegistration {
  toolName: string;
  scope: TeardownScope;
  key: string;
  /** Releases what the tool holds; may return a promise, which is awaited within the time bound. */
  cleanup: () => unknown;
}

/**
 * A cleanup that finished: passed to `onFired`.
 */
export interface TeardownFired {
  scope: TeardownScope;
  key: string;
  toolName: string;
}

/**
 * A cleanup that threw or outlived its time bound (kind `timeout`): passed to `onFailed`.
 */
export interface TeardownFailed extends TeardownFired {
  error: ErrorInfo;
}

/** Options of {@link createTeardownRegistry}. */
export interface TeardownRegistryOptions {
  /** The scopes this door can end; registering for another throws. */
  honours: readonly TeardownScope[];
  /** The door's name, used in the error for an unhonoured scope. */
  doorName: string;
  /** The time bound of each cleanup; 5000 ms unless set. */
  timeoutMs?: number;
  /** Told of each cleanup that finished. */
  onFired?: (info: TeardownFired) => void;
  /** Told of each cleanup that threw or outlived its time bound. */
  onFailed?: (info: TeardownFailed) => void;
}

/** Cleanups by scope and key; see {@link createTeardownRegistry}. */
export interface TeardownRegistry {
  readonly honours: readonly TeardownScope[];
  /** Registers a cleanup; `false` when this (tool, scope, key) has one already (the first wins). */
  register(registration: TeardownRegistration): boolean;
  /** Ends a scope's key: its cleanups run last-in first-out, each once ever. Never rejects. */
  fire(scope: TeardownScope, key: string): Promise<void>;
  /** Ends every key of a scope (at shutdown). Never rejects. */
  fireAll(scope: TeardownScope): Promise<void>;
}

/** How many ended keys per scope are remembered, so a late registration runs at once. */
const ENDED_MEMORY = 10_000;
const TIMED_OUT = Symbol('timed out');

/**
 * The cleanups of one door. The runtime registers `ctx.onTeardown` calls here and fires a scope's
 * key when it ends (call → callId, run → runId, session → a `teardownKey` (`@toolctx/core`), shutdown → '').
 * Each cleanup runs exactly once, bounded by `timeoutMs`: a hanging one is reported as failed
 * (kind `timeout`) and the next goes ahead; failures go to `onFailed`, never thrown. A cleanup
 * registered after its call, run or shutdown ended runs at once, since that scope is over for good;
 * a session key may be used again after it fired (sessions are resumed by id), so a later
 * registration there starts a new lifetime.
 */
export function createTeardownRegistry(options: TeardownRegistryOptions): TeardownRegistry {
  const { doorName, onFired, onFailed } = options;
  const timeoutMs = options.timeoutMs ?? 5000;
  if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) {
    throw new ToolctxError(
      'args-invalid',
      `Teardown timeoutMs must be a positive number of milliseconds, not ${timeoutMs}.`,
    );
  }
  const honours = Object.freeze([...options.honours]);
  const live = new Map<TeardownScope, Map<string, TeardownRegistration[]>>();
  const ended = new Map<TeardownScope, Map<string, Set<string>>>(); // key → tool names that had a cleanup
  const inFlight = new Map<TeardownScope, Map<string, Promise<void>>>();
  const inScope = <T>(map: Map<TeardownScope, Map<string, T>>, scope: TeardownScope) => {
    const inner = map.get(scope) ?? new Map<string, T>();
    map.set(scope, inner);
    return inner;
  };

  async function runOne(entry: TeardownRegistration): Promise<void> {
    const { scope, key, toolName } = entry;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
    });
    try {
      const outcome = await Promise.race([Promise.resolve().then(entry.cleanup), bound]);
      if (outcome === TIMED_OUT) {
        const message = `The ${scope} cleanup of \`${toolName}\` did not finish within ${timeoutMs} ms; the next cleanup went ahead without it.`;
        report(onFailed, {
          scope,
          key,
          toolName,
          error: { kind: 'timeout', message, retryable: false, details: { scope, toolName, timeoutMs } },
        });
      } else {
        report(onFired, { scope, key, toolName });
      }
    } catch (thrown) {
      report(onFailed, { scope, key, toolName, error: cleanupError(thrown, scope, toolName) });
    } finally {
      clearTimeout(timer);
    }
  }

  function fire(scope: TeardownScope, key: string): Promise<void> {
    const running = inScope(inFlight, scope).get(key);
    if (running) return running;
    const entries = inScope(live, scope).get(key) ?? [];
    inScope(live, scope).delete(key);
    if (scope !== 'session') markEnded(scope, key, entries);
    if (entries.length === 0) return Promise.resolve();
    const run = (async () => {
      for (const entry of entries.reverse()) await runOne(entry);
    })().finally(() => inScope(inFlight, scope).delete(key));
    inScope(inFlight, scope).set(key, run);
    return run;
  }

  function markEnded(scope: TeardownScope, key: string, entries: TeardownRegistration[]): void {
    const endedKeys = inScope(ended, scope);
    const tools = endedKeys.get(key) ?? new Set<string>();
    for (const entry of entries) tools.add(entry.toolName);
    endedKeys.delete(key); // re-insert so the most recent keys are the ones kept
    endedKeys.set(key, tools);
    if (endedKeys.size > ENDED_MEMORY) endedKeys.delete(endedKeys.keys().next().value as string);
  }

  return {
    honours,
    register(registration) {
      const { toolName, scope, key, cleanup } = registration;
      checkHonoured(honours, doorName, scope);
      if (typeof cleanup !== 'function' || typeof key !== 'string') {
        throw new ToolctxError(
          'args-invalid',
          'A teardown registration takes a cleanup function and a string key.',
        );
      }
      const endedTools = inScope(ended, scope).get(key);
      if (endedTools) {
        if (endedTools.has(toolName)) return false;
        endedTools.add(toolName);
        void runOne({ toolName, scope, key, cleanup });
        return true;
      }
      const entries = inScope(live, scope).get(key) ?? [];
      if (entries.some((entry) => entry.toolName === toolName)) return false;
      entries.push({ toolName, scope, key, cleanup });
      inScope(live, scope).set(key, entries);
      return true;
    },
    fire,
    async fireAll(scope) {
      const keys = [...inScope(live, scope).keys()];
      await Promise.all([...keys.map((key) => fire(scope, key)), ...inScope(inFlight, scope).values()]);
    },
  };
}

/** Throws the `unsupported` error for a cleanup registered under a scope the door cannot end. */
export function checkHonoured(
  honours: readonly TeardownScope[],
  doorName: string,
  scope: TeardownScope,
): void {
  if (honours.includes(scope)) return;
  const list = honours.map((s) => `'${s}'`).join(', ') || 'none';
  throw new ToolctxError(
    'unsupported',
    `The ${doorName} door does not honour teardown scope '${String(scope)}'; it honours ${list}. ` +
      'Register the cleanup with one of those (ctx.teardownScopes lists them).',
    { details: { door: doorName, scope, honours: [...honours] } },
  );
}

function cleanupError(thrown: unknown, scope: TeardownScope, toolName: string): ErrorInfo {
  const info = toErrorInfo(thrown);
  if (thrown instanceof ToolctxError) return info;
  return { ...info, message: `The ${scope} cleanup of \`${toolName}\` failed with ${info.exception}.` };
}

function report<T>(listener: ((info: T) => void) | undefined, info: T): void {
  try {
    listener?.(info);
  } catch {
    // A listener's failure must not stop the remaining cleanups.
  }
}
