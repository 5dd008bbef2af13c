import type { Runtime } from '@toolctx/core';

// What each `runtimeFor` made, by the function and then by the env it was given: the HTTP door
// and the run host handed the same function share its runtimes.
const made = new WeakMap<object, WeakMap<object, Runtime>>();
/** Stands for an env that is not an object (`app.request(path)` with none, in a test or on Node). */
const noEnv = {};

/**
 * The runtime `runtimeFor` makes for `env`, made once per `env` object. A Worker's bindings are
 * one object for the life of its isolate, so its runtime (the tool set checked once, taint,
 * approval tokens, session cleanups) lives as long, however many requests and Durable Objects
 * use it.
 */
export function sharedRuntime<E>(runtimeFor: (env: E) => Runtime, env: E): Runtime {
  const key = typeof env === 'object' && env !== null ? env : noEnv;
  let byEnv = made.get(runtimeFor);
  if (!byEnv) {
    byEnv = new WeakMap();
    made.set(runtimeFor, byEnv);
  }
  let runtime = byEnv.get(key);
  if (!runtime) {
    runtime = runtimeFor(env);
    if (typeof runtime?.startRun !== 'function') {
      throw new TypeError('runtimeFor must return a runtime: (env) => createRuntime({ tools, ... }).');
    }
    byEnv.set(key, runtime);
  }
  return runtime;
}
