export {
  createTeardownRegistry,
  TEARDOWN_SCOPES,
  type TeardownFailed,
  type TeardownFired,
  type TeardownRegistration,
  type TeardownRegistry,
  type TeardownRegistryOptions,
  type TeardownScope,
} from './teardown-registry.js';
export { type TeardownKeyFacts, toolSessionKey } from './tool-session-key.js';
