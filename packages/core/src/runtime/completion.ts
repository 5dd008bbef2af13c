import { bindArtifacts } from '../context/bound-artifacts.js';
import type { CallFacts, RunFacts } from '../context/create-context.js';
import type { ToolResult } from '../context/types.js';
import type { ErrorInfo } from '../errors.js';
import { callTaint, type ResultTaint } from '../policy/taint.js';
import type { AnyTool } from '../tools/define-tool.js';
import { validate } from '../tools/schema.js';

/**
 * Turns a tool's return value into a result: checked against its output schema, the transcript
 * copy made and — when over the call's share of the budget — spilled whole to an artifact before
 * it is cut; the conversation's taint raised by what the tool read.
 */
export function completeCall(
  run: RunFacts,
  tool: AnyTool,
  call: CallFacts,
  value: unknown,
  budgetBytes: number,
): ToolResult | ErrorInfo | Promise<ToolResult | ErrorInfo> {
  if (!tool.outputSchema) return transcript(run, tool, call, value, budgetBytes);
  const checked = validate(tool.outputSchema, value);
  const after = (
    result: Awaited<typeof checked>,
  ): ToolResult | ErrorInfo | Promise<ToolResult | ErrorInfo> =>
    result.issues
      ? {
          kind: 'tool-error',
          message: `"${tool.name}" returned a value that does not match its output schema.`,
          retryable: false,
          details: { issues: result.issues.map((issue) => issue.message) },
        }
      : transcript(run, tool, call, result.value, budgetBytes);
  return checked instanceof Promise ? checked.then(after) : after(checked);
}

/** The transcript copy; asynchronous only when it must spill to the artifact store. */
function transcript(
  run: RunFacts,
  tool: AnyTool,
  call: CallFacts,
  value: unknown,
  budgetBytes: number,
): ToolResult | ErrorInfo | Promise<ToolResult | ErrorInfo> {
  raiseTaint(run, tool, value);
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  } catch (thrown) {
    const name = thrown instanceof Error ? thrown.name : typeof thrown;
    return {
      kind: 'tool-error',
      message: `"${tool.name}" returned a value that cannot be written as JSON (${name}); return plain data.`,
      retryable: false,
    };
  }
  // Cheap test first: a string's UTF-8 size is at most three bytes per code unit.
  if (text.length * 3 <= budgetBytes) return { ok: true, value, content: text };
  return spill(run, tool, call, value, text, budgetBytes);
}

async function spill(
  run: RunFacts,
  tool: AnyTool,
  call: CallFacts,
  value: unknown,
  text: string,
  budgetBytes: number,
): Promise<ToolResult> {
  const store = run.services.artifacts;
  const { toolCallId, parentId } = call;
  // Loaded on the first result over budget: most results fit and never need it.
  const { spillAndCut } = await import('../output/spill-and-cut.js');
  const spill = await spillAndCut({
    text,
    budgetBytes,
    toolName: tool.name,
    // The runtime's own write, made after the tool returned: bound like a tool's, with no guard.
    store:
      store &&
      bindArtifacts(store, { scope: run.scope, runId: run.runId, toolCallId, parentId, log: run.log }),
  });
  const cut = spill.spilled ?? spill.cut;
  if (!cut) return { ok: true, value, content: spill.content };
  const spilled = spill.spilled
    ? { ref: spill.spilled.ref, bytes: spill.spilled.bytes, keptBytes: spill.spilled.keptBytes }
    : { bytes: cut.bytes, keptBytes: cut.keptBytes };
  run.log.emit('output.spilled', { tool: tool.name, ...spilled }, call.toolCallId, call.parentId);
  return { ok: true, value, content: spill.content, spilled };
}

function raiseTaint(run: RunFacts, tool: AnyTool, value: unknown): void {
  const reads = tool.reads;
  if (reads === undefined) return;
  let taint: ResultTaint;
  try {
    taint = typeof reads === 'function' ? reads(value) : callTaint(reads);
  } catch {
    taint = 'unknown'; // a taint that cannot be told counts as full
  }
  run.services.taint.raise(run.taintKey, taint);
}
