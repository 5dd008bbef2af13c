import { type ContentPart, isToolParts } from '../content/content-part.js';
import { bindArtifacts } from '../context/bound-artifacts.js';
import type { ToolResult } from '../context/types.js';
import type { ErrorInfo } from '../errors.js';
import { callTaint, type ResultTaint } from '../policy/taint.js';
import { plainDataLimits, plainDataProblem } from '../progress/plain-data.js';
import type { AnyTool } from '../tools/define-tool.js';
import { validate } from '../tools/schema.js';
import type { CallState } from './call-state.js';
import type { RunFacts } from './run-facts.js';

/**
 * Turns a tool's return value into a result: its content parts checked (when it returned
 * `withParts`), its value checked against its output schema, the conversation's taint raised by
 * what the tool read, the transcript copy made and — when over the call's share of the budget —
 * spilled whole to an artifact before it is cut.
 */
export async function completeCall(
  run: RunFacts,
  call: CallState,
  returned: unknown,
): Promise<ToolResult | ErrorInfo> {
  const { tool } = call;
  let value = returned;
  let parts: { parts: ContentPart[]; text: string } | undefined;
  if (isToolParts(returned)) {
    // Loaded on the first result with parts: most results are plain values.
    const { checkParts } = await import('../content/check-parts.js');
    const checked = checkParts(tool.name, returned.parts);
    if ('kind' in checked) return checked;
    parts = checked;
    value = returned.value;
  }
  if (tool.outputSchema) {
    const checked = await validate(tool.outputSchema, value);
    if (checked.issues) {
      return {
        kind: 'tool-error',
        message: `"${tool.name}" returned a value that does not match its output schema.`,
        retryable: false,
        details: { issues: checked.issues.map((issue) => issue.message) },
      };
    }
    value = checked.value;
  }
  const problem = resultProblem(value);
  if (problem) {
    return {
      kind: 'tool-error',
      message: `"${tool.name}" returned ${problem}; return plain data.`,
      retryable: false,
      details: { maxDepth: plainDataLimits.maxDepth },
    };
  }
  raiseTaint(run, tool, value);
  if (parts) return carrying(await fitted(run, call, value, parts.text, false), parts.parts);
  let text: string;
  try {
    text = transcriptText(value);
  } catch (thrown) {
    const name = thrown instanceof Error ? thrown.name : typeof thrown;
    return {
      kind: 'tool-error',
      message: `"${tool.name}" returned a value that cannot be written as JSON (${name}); return plain data.`,
      retryable: false,
    };
  }
  return fitted(run, call, value, text, typeof value !== 'string');
}

/**
 * The result with its transcript text, spilled and cut when over the call's budget. `json`: the
 * text is the value's JSON, so the spilled artifact is the value itself (`application/json`).
 */
function fitted(
  run: RunFacts,
  call: CallState,
  value: unknown,
  text: string,
  json: boolean,
): ToolResult | Promise<ToolResult> {
  return fits(text, call.budgetBytes)
    ? { ok: true, value, content: text }
    : spill(run, call, value, text, json);
}

/** The result with the checked parts beside its transcript text. */
function carrying(result: ToolResult, parts: ContentPart[]): ToolResult {
  if (result.ok) result.parts = parts;
  return result;
}

/**
 * The fast path's completion, for a tool with no output schema: the result when its transcript
 * fits the budget and it returned no parts, else `undefined`, and {@link completeCall} does the
 * rest (nothing was done yet).
 */
export function completeAtOnce(run: RunFacts, call: CallState, value: unknown): ToolResult | undefined {
  if (isToolParts(value)) return undefined;
  let text: string;
  try {
    text = transcriptText(value);
  } catch {
    return undefined;
  }
  // Walked only once the result fits: one over budget goes to completeCall, which walks it.
  if (!fits(text, call.budgetBytes) || resultProblem(value)) return undefined;
  raiseTaint(run, call.tool, value);
  return { ok: true, value, content: text };
}

// A result value is held to the depth bound of reports (what it is written into must not overflow
// a stack) and refused what JSON would not carry faithfully (a Map, a RegExp, bytes); its size is
// the output budget's to bound.
const resultDepth = { maxDepth: plainDataLimits.maxDepth, result: true };
const resultProblem = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null ? plainDataProblem(value, resultDepth) : undefined;

// A finite number's JSON text is its string (the same digits), made without JSON.stringify's
// setup: 8% of a trivial call's CPU profile when its tool returns a number.
const transcriptText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' && Number.isFinite(value)
      ? String(value)
      : (JSON.stringify(value) ?? '');

// Cheap test: a string's UTF-8 size is at most three bytes per code unit. A text that fails it
// may still fit; spillAndCut measures exactly.
const fits = (text: string, budgetBytes: number): boolean => text.length * 3 <= budgetBytes;

async function spill(
  run: RunFacts,
  call: CallState,
  value: unknown,
  text: string,
  json: boolean,
): Promise<ToolResult> {
  const store = run.services.artifacts;
  const { toolCallId, parentId, toolName } = call;
  // Loaded on the first result over budget: most results fit and never need it.
  const { spillAndCut } = await import('../output/spill-and-cut.js');
  const spill = await spillAndCut({
    text,
    budgetBytes: call.budgetBytes,
    toolName,
    mediaType: json ? 'application/json' : 'text/plain; charset=utf-8',
    // The runtime's own write, made after the tool returned: through the same bound store as
    // ctx.artifacts.put (scope, origin, artifact.put event), with no settled guard.
    store:
      store &&
      bindArtifacts(store, { scope: run.scope, runId: run.runId, toolCallId, parentId, log: run.log }),
  });
  const cut = spill.spilled ?? spill.cut;
  if (!cut) return { ok: true, value, content: spill.content };
  const spilled = spill.spilled
    ? { ref: spill.spilled.ref, bytes: spill.spilled.bytes, keptBytes: spill.spilled.keptBytes }
    : { bytes: cut.bytes, keptBytes: cut.keptBytes };
  run.log.emit('output.spilled', { tool: toolName, ...spilled }, toolCallId, parentId);
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
