import type { Phase } from '../policy/phase.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { type AnyTool, type ToolSchema, toolSchema } from '../tools/define-tool.js';

/** Where an adapter takes its tools from: a runtime (filtered by phase), tools, or their schemas. */
export type ToolSource = Runtime | readonly (AnyTool | ToolSchema)[];

/** Options every tool-list adapter takes. */
export interface ToolListOptions {
  /** With a runtime: list the tools of this phase (in `plan`, only `read` tools). Default `act`. */
  phase?: Phase;
}

/** The schemas of a source, as a model may be offered them. */
export function schemasOf(source: ToolSource, options: ToolListOptions = {}): ToolSchema[] {
  if (isRuntime(source)) return source.listTools({ phase: options.phase ?? 'act' });
  return source.map((tool) =>
    'execute' in tool
      ? toolSchema(tool)
      : { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
  );
}

function isRuntime(source: ToolSource): source is Runtime {
  return typeof (source as Runtime).listTools === 'function';
}
