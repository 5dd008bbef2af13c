import { EventLog, type EventSink, type SinkErrorHandler } from '../events/event-log.js';
import { createTeardownRegistry, type TeardownRegistry } from '../teardown/teardown-registry.js';
import type { DoorDeclaration } from './door.js';

/** The cleanups that outlive a run: session and shutdown scopes, kept by the runtime. */
export interface SessionTeardown {
  readonly registry: TeardownRegistry;
  /** Remembers that `key` belongs to `sessionId`, so closing the session fires it. */
  noteSession(sessionId: string, key: string): void;
  closeSession(sessionId: string): Promise<void>;
  shutdown(): Promise<void>;
}

export function createSessionTeardown(
  door: DoorDeclaration,
  timeoutMs: number,
  sinks: readonly EventSink[],
  onSinkError: SinkErrorHandler,
): SessionTeardown {
  // Events of cleanups that belong to no run go to the runtime's sinks, without a run id.
  const log = new EventLog(undefined, sinks, onSinkError);
  const registry = createTeardownRegistry({
    honours: door.teardownScopes,
    doorName: door.name,
    timeoutMs,
    onFired: ({ scope }) => log.emit('teardown.fired', { scope, count: 1 }),
    onFailed: ({ scope, toolName, error }) => log.emit('teardown.failed', { scope, tool: toolName, error }),
  });
  const sessions = new Map<string, Set<string>>();
  return {
    registry,
    noteSession(sessionId, key) {
      const keys = sessions.get(sessionId) ?? new Set<string>();
      keys.add(key);
      sessions.set(sessionId, keys);
    },
    async closeSession(sessionId) {
      const keys = sessions.get(sessionId);
      sessions.delete(sessionId);
      for (const key of keys ?? []) await registry.fire('session', key);
    },
    async shutdown() {
      sessions.clear();
      if (door.teardownScopes.includes('session')) await registry.fireAll('session');
      if (door.teardownScopes.includes('shutdown')) await registry.fireAll('shutdown');
    },
  };
}
