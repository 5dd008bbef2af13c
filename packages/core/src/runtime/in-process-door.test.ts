// The door conformance suite through the in-process door: runtime.startRun() in this process.
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import { describeDoor } from '../testing/describe-door.js';
import { doorSuiteCredentials, doorSuiteTenant } from '../testing/door-suite-tools.js';
import { runDoorClient } from '../testing/run-door-client.js';
import { createRuntime } from './create-runtime.js';
import { inProcessDoor } from './door.js';

// One store for every caller, so reading another caller's ref can only fail by its scope.
const artifacts = createMemoryArtifactStore();

describeDoor('in-process', {
  supplies: { ...inProcessDoor, artifacts: true, credentials: true, events: true, handles: true, asks: true },
  async connect(tools, { caller }) {
    const runtime = createRuntime({ tools, artifacts, credentials: doorSuiteCredentials() });
    const sessionId = `session-${crypto.randomUUID()}`;
    const identity = { tenant: doorSuiteTenant, principal: caller };
    return runDoorClient(runtime.startRun({ identity, sessionId }), {
      endScope: (scope) =>
        scope === 'session' ? runtime.closeSession(sessionId, identity) : runtime.shutdown(),
      readArtifact: async (ref) =>
        (await artifacts.get({ tenant: doorSuiteTenant, principal: caller, conversation: '' }, ref))?.data ??
        null,
    });
  },
});
