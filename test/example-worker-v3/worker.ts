// The example Worker (packages/edge/src/worker.ts) under its names before the rename (test only):
// the identity class exported as `IdentityRuns` and bound as `IDENTITY_RUNS`, as wrangler.jsonc
// here declares them. test/worker/renamed-class.test.ts fills an identity's state with it, then
// starts packages/edge/wrangler.jsonc (migration v4, renamed_classes) on the same persist dir.
import type { ExampleWorkerEnv } from '../../packages/edge/src/env.js';
import example, {
  ArtifactAdmissions,
  RunHost as ExampleRunHost,
  IdentityState,
} from '../../packages/edge/src/worker.js';

type Env = Omit<ExampleWorkerEnv, 'IDENTITY_STATE'> & { IDENTITY_RUNS: ExampleWorkerEnv['IDENTITY_STATE'] };

// One renamed view per env object, as the door and the run host keep what they make per env.
const views = new WeakMap<Env, ExampleWorkerEnv>();
const asExampleEnv = (env: Env): ExampleWorkerEnv => {
  let view = views.get(env);
  if (!view) {
    view = { ...env, IDENTITY_STATE: env.IDENTITY_RUNS };
    views.set(env, view);
  }
  return view;
};

export class RunHost extends ExampleRunHost {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, asExampleEnv(env));
  }
}

export class IdentityRuns extends IdentityState {}

export { ArtifactAdmissions };

export default {
  fetch: (request, env, ctx) => example.fetch(request, asExampleEnv(env), ctx),
} satisfies ExportedHandler<Env>;
