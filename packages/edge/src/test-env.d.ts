// Types `env` and `exports` from `cloudflare:workers` in the tests that run inside workerd.
type ToolctxEnv = import('./env.js').ExampleWorkerEnv;

declare namespace Cloudflare {
  interface Env extends ToolctxEnv {}
  interface GlobalProps {
    mainModule: typeof import('./worker.js');
    durableNamespaces: 'RunHost' | 'ArtifactAdmissions';
  }
}
