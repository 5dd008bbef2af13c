import { expect } from 'vitest';
import type { Answered, OpenAsk } from '../ask/ask.js';
import type { ProgressPayload, ToolResult } from '../context/types.js';
import type { ToolEvent } from '../events/catalogue.js';
import type { CallHandle } from '../runtime/call-book.js';
import type { DoorDeclaration } from '../runtime/door.js';
import type { TeardownScope } from '../teardown/teardown-registry.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { SuiteCase } from './suite-cases.js';

/**
 * What a door supplies: its own `DoorDeclaration`, plus whether its host wires artifacts a caller
 * can read back, credentials, and forwards a call's events to the caller.
 */
export interface DoorSupplies extends DoorDeclaration {
  /** Tools can save artifacts, and the caller can read them back by ref within its own scope. */
  artifacts: boolean;
  /** The host wires `doorSuiteCredentials()`, so `ctx.credentials` resolves. */
  credentials: boolean;
  /** The caller sees the call's `ToolEvent`s (not only its progress). */
  events: boolean;
  /**
   * Each call has a handle the caller can read (`DoorClient.callStatus`), also from a second
   * connection to the same run (`DoorClient.reconnect`): doors with runs.
   */
  handles?: boolean;
  /** The door's host can be restarted mid-call keeping its storage (`DoorClient.restart`): a Durable Object. */
  restarts?: boolean;
  /** A call can ask its user (`ctx.ask`), and the caller lists and answers asks (`DoorClient.asks`, `answer`). */
  asks?: boolean;
}

/** What one call through a door saw. */
export interface DoorCallOutcome {
  result: ToolResult;
  /**
   * The progress payloads the caller received, in arrival order. Keep appending what arrives
   * after the result: the suite checks that nothing does.
   */
  progress: ProgressPayload[];
  /** The call's events as the caller received them (empty where the door forwards none); live too. */
  events: ToolEvent[];
}

/** The caller's side of a door, connected as one caller, in one run where the door has runs. */
export interface DoorClient {
  /** The run the calls belong to, where the door has runs and the caller knows its id. */
  readonly runId?: string;
  /**
   * Calls a tool; a failure is a `ToolResult`, and an abort of `signal` settles as `aborted`. The
   * call's id is `toolCallId` when given, else one of the client's own.
   */
  call(
    tool: string,
    args: unknown,
    options?: { signal?: AbortSignal; toolCallId?: string },
  ): Promise<DoorCallOutcome>;
  /** Where the door has handles: a call's handle, `undefined` for an id the run does not know. */
  callStatus?(toolCallId: string): Promise<CallHandle | undefined>;
  /** Where the door has handles: a second connection to the same run, as after a page reload. */
  reconnect?(): Promise<Pick<DoorClient, 'callStatus'>>;
  /** Where the door's host restarts: restarts it as a crash would, keeping its storage. */
  restart?(): Promise<void>;
  /** Where the door carries asks: the open asks of the caller's run. */
  asks?(): Promise<OpenAsk[]>;
  /** Where the door carries asks: answers one, as `run.answer` does. */
  answer?(askId: string, answer: unknown): Promise<Answered>;
  /**
   * Ends `scope` for this caller (a declared scope other than `call`): its run, its session, or the
   * host. The suite makes no more calls through this client afterwards.
   */
  end(scope: Exclude<TeardownScope, 'call'>): Promise<void>;
  /** The data of an artifact, read back through the door in this caller's scope; `null` if not found. */
  readArtifact(ref: string): Promise<unknown>;
  /** Releases what `connect` opened. */
  close(): Promise<void>;
}

/** Who calls: each is a principal of the tenant `doorSuiteTenant`, with scopes of its own. */
export interface DoorConnectOptions {
  caller: 'ana' | 'bob';
}

/**
 * Options of `describeDoor`.
 *
 * @example
 * ```ts
 * import { createRuntime, inProcessDoor, type Run } from '@toolctx/core';
 * import { type DoorSuiteOptions, runDoorClient } from '@toolctx/core/testing';
 * declare function myDoor(run: Run, caller: unknown): Run; // the door under test, in front of a run
 * const options: DoorSuiteOptions = {
 *   supplies: { ...inProcessDoor, artifacts: true, credentials: true, events: true },
 *   connect: async (tools, { caller }) => runDoorClient(myDoor(createRuntime({ tools }).startRun(), caller)),
 * };
 * ```
 */
export interface DoorSuiteOptions {
  /**
   * Opens a client of the door serving `tools` (`doorSuiteTools()`, made once per suite). A door
   * across a boundary serves its own copy of `doorSuiteTools()` and may ignore `tools`. Called
   * several times per case; every client must reach the same tools.
   */
  connect: (tools: readonly AnyTool[], options: DoorConnectOptions) => Promise<DoorClient>;
  supplies: DoorSupplies;
}

/** What each case file receives. */
export interface DoorCaseKit {
  name: string;
  supplies: DoorSupplies;
  tools: readonly AnyTool[];
  /** Connects, runs `use`, and closes every client it opened, even when `use` throws. */
  withClients: <T>(
    use: (open: (caller?: DoorConnectOptions['caller']) => Promise<DoorClient>) => Promise<T>,
  ) => Promise<T>;
}

export type DoorCases = (kit: DoorCaseKit) => SuiteCase[];

/**
 * A case that needs `capability`: run when the door declares it; otherwise it passes as not
 * applicable by that declaration (running `absent`, which checks the door is honest about it).
 */
export function needs(
  kit: DoorCaseKit,
  declared: boolean,
  capability: string,
  title: string,
  run: () => Promise<void>,
  absent?: () => Promise<void>,
): SuiteCase {
  if (declared) return { title, run };
  return { title: `${title} — n/a: ${kit.name} declares no ${capability}`, run: absent ?? (() => {}) };
}

/** A fresh key, so cases that share a door's tools never read each other's records. */
export const freshKey = (label: string) => `${label}-${crypto.randomUUID()}`;

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, failing with `what` after about two seconds. */
export async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await pause(10);
  }
  expect(await check(), `timed out waiting until ${what}`).toBe(true);
}

/** The value of a successful result, failing the case with the error otherwise. */
export function successValue<T>(outcome: DoorCallOutcome): T {
  if (!outcome.result.ok) expect.fail(`the call failed: ${JSON.stringify(outcome.result.error)}`);
  return outcome.result.value as T;
}

/** The error kind of a failed result, failing the case if it succeeded. */
export function errorOf(outcome: DoorCallOutcome) {
  if (outcome.result.ok) expect.fail(`the call succeeded with ${JSON.stringify(outcome.result.value)}`);
  return outcome.result.error;
}
