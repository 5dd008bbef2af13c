import type { Identity } from '../context/types.js';
import { EventLog, type EventSink, type SinkErrorHandler } from '../events/event-log.js';
import { teardownKey } from '../teardown/teardown-key.js';
import {
  checkHonoured,
  createTeardownRegistry,
  type TeardownRegistry,
} from '../teardown/teardown-registry.js';
import type { DoorDeclaration } from './door.js';

/**
 * The cleanups that outlive a run: session and shutdown scopes. One set per runtime, shared by
 * all its doors, so a session opened through one door ends through any of them.
 */
export interface SessionTeardown {
  /** Registers and fires cleanups; the view of one door refuses the scopes that door does not honour. */
  readonly registry: TeardownRegistry;
  /**
   * Fires the cleanups of `identity`'s session `sessionId`: the key a cleanup registered under
   * names its tenant and principal too, so another identity's session of the same id is untouched.
   */
  closeSession(sessionId: string, identity?: Identity): Promise<void>;
  shutdown(): Promise<void>;
}

export function createSessionTeardown(
  timeoutMs: number,
  sinks: readonly EventSink[],
  onSinkError: SinkErrorHandler,
): SessionTeardown {
  // Events of cleanups that belong to no run go to the runtime's sinks, without a run id.
  const log = new EventLog(undefined, sinks, onSinkError);
  // Each door's view checks its own scopes first (see sessionsAt), so nothing reaches here under
  // a scope the door it came through does not honour.
  const registry = createTeardownRegistry({
    honours: ['session', 'shutdown'],
    doorName: 'runtime',
    timeoutMs,
    onFired: ({ scope }) => log.emit('teardown.fired', { scope, count: 1 }),
    onFailed: ({ scope, toolName, error }) => log.emit('teardown.failed', { scope, tool: toolName, error }),
  });
  return {
    registry,
    closeSession: (sessionId, identity) =>
      registry.fire('session', teardownKey({ identity, sessionId }, 'session')),
    async shutdown() {
      await registry.fireAll('session');
      await registry.fireAll('shutdown');
    },
  };
}

/** The runtime's session cleanups as one door sees them: registering checks that door's scopes. */
export function sessionsAt(shared: SessionTeardown, door: DoorDeclaration): SessionTeardown {
  const registry: TeardownRegistry = {
    honours: door.teardownScopes,
    register(registration) {
      checkHonoured(door.teardownScopes, door.name, registration.scope);
      return shared.registry.register(registration);
    },
    fire: (scope, key) => shared.registry.fire(scope, key),
    fireAll: (scope) => shared.registry.fireAll(scope),
  };
  return { ...shared, registry };
}
