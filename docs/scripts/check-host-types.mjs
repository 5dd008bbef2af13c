// core's published declarations must compile on any host: with Node's types and no DOM lib, and
// with Cloudflare's Workers types, both with `skipLibCheck: false`, as a user's strict project
// does. Every entry's .d.ts is checked; an error in core's own files fails. Errors in the
// declarations of a peer (`ai`, the MCP SDK use DOM names such as `HeadersInit`) are that peer's
// and are counted, not failed on. Needs a build of core.
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const require = createRequire(import.meta.url);
const coreDist = realpathSync(fileURLToPath(new URL('../../packages/core/dist/', import.meta.url)));
const { exports } = require('@toolctx/core/package.json');
const entries = Object.entries(exports)
  .filter(([, target]) => typeof target === 'object' && target.types)
  .map(([entry]) => `@toolctx/core${entry.slice(1)}`);

const hosts = {
  'Node types, no DOM': ['node'],
  'Workers types, no DOM': ['@cloudflare/workers-types'],
};
const source = entries.map((entry, i) => `export type * as entry${i} from '${entry}';\n`).join('');
const problems = [];
for (const [host, types] of Object.entries(hosts)) {
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts'],
    types,
    strict: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: false,
    noEmit: true,
  };
  const file = fileURLToPath(new URL('../host-types.check.ts', import.meta.url));
  const compilerHost = ts.createCompilerHost(options);
  const { readFile, fileExists } = compilerHost;
  compilerHost.readFile = (name) => (name === file ? source : readFile(name));
  compilerHost.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, compilerHost);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const ours = diagnostics.filter((d) => d.file && realpathSync(d.file.fileName).startsWith(coreDist));
  for (const d of ours) {
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    const where = `${d.file.fileName.slice(d.file.fileName.indexOf('packages/core'))}:${line + 1}`;
    problems.push(`${host}: ${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  }
  console.log(
    `core's declarations with ${host}: ${ours.length} errors of core's, ${diagnostics.length - ours.length} in peers' declarations.`,
  );
}
if (problems.length > 0) {
  console.error(
    `${problems.join('\n')}\nFix: use only names that web-standard hosts share (e.g. \`string | URL | Request\`, not \`RequestInfo\`) in core's public types.`,
  );
  process.exit(1);
}
