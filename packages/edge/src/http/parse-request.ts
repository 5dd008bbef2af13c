import type { Phase } from '@toolctx/core';
import { HttpError } from './http-error.js';

/** What `POST /runs` accepts. */
export interface StartRunBody {
  sessionId?: string;
  phase?: Phase;
  state?: Record<string, unknown>;
}

/** What `POST /runs/:runId/calls` and `POST /calls` accept. */
export interface CallBody {
  tool: string;
  args: unknown;
  toolCallId?: string;
}

/** What `POST /approvals/:id` accepts. */
export interface ApprovalBody {
  /** The run whose call waits: it is in the `approval-pending` error and the `approval.requested` event. */
  runId: string;
  approved: boolean;
  reason?: string;
}

const idPattern = /^[A-Za-z0-9_.:-]{1,128}$/;

export function parseStartRun(body: unknown): StartRunBody {
  const input = objectOf(body ?? {}, 'The body');
  const out: StartRunBody = {};
  if (input.sessionId !== undefined) out.sessionId = stringOf(input.sessionId, 'sessionId', 256);
  if (input.phase !== undefined) out.phase = phaseOf(input.phase);
  if (input.state !== undefined) out.state = objectOf(input.state, 'state');
  return out;
}

export function parseCall(body: unknown): CallBody {
  const input = objectOf(body, 'The body');
  const tool = stringOf(input.tool, 'tool', 64);
  if (!('args' in input)) throw bad('The body needs args: the tool arguments, as an object.');
  const out: CallBody = { tool, args: input.args };
  if (input.toolCallId !== undefined) out.toolCallId = idOf(input.toolCallId, 'toolCallId');
  return out;
}

export function parseApproval(body: unknown): ApprovalBody {
  const input = objectOf(body, 'The body');
  if (typeof input.approved !== 'boolean') throw bad('approved must be true or false.');
  const runId = idOf(input.runId, 'runId');
  const out: ApprovalBody = { runId, approved: input.approved };
  if (input.reason !== undefined) out.reason = stringOf(input.reason, 'reason', 1000);
  return out;
}

/** A page size from the query: a whole number from 1 to 1000. */
export function limitOf(value: string): number {
  const limit = Number(value);
  if (Number.isInteger(limit) && limit >= 1 && limit <= 1000) return limit;
  throw bad('limit must be a whole number from 1 to 1000.');
}

export function phaseOf(value: unknown): Phase {
  if (value === 'plan' || value === 'act') return value;
  throw bad('phase must be "plan" or "act".');
}

/** A run or call id from the path or the body: short, plain characters. */
export function idOf(value: unknown, name: string): string {
  if (typeof value === 'string' && idPattern.test(value)) return value;
  throw bad(`${name} must be 1–128 letters, digits or "_.:-".`);
}

/**
 * Where an event stream resumes: `Last-Event-ID` (what EventSource sends on reconnect) wins over
 * `?after=`; neither means from the start.
 */
export function resumePoint(lastEventId: string | null, after: string | undefined): number {
  const raw = lastEventId ?? after;
  if (raw === undefined || raw === null || raw === '') return 0;
  if (!/^\d{1,15}$/.test(raw.trim()))
    throw bad('Last-Event-ID (or ?after=) must be the seq of an event: a whole number, 0 or more.');
  return Number(raw.trim());
}

function objectOf(value: unknown, name: string): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return value as Record<string, unknown>;
  throw bad(`${name} must be a JSON object.`);
}

function stringOf(value: unknown, name: string, max: number): string {
  if (typeof value === 'string' && value.length > 0 && value.length <= max) return value;
  throw bad(`${name} must be a string of 1–${max} characters.`);
}

function bad(message: string): HttpError {
  return new HttpError(400, 'bad-request', message);
}
