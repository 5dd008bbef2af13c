import type { ArtifactMeta } from '../artifacts/types.js';
import type { AskAnswer, AskForm, AskFormAnswer, AskRequest, AskUrl } from '../ask/ask.js';
import type { CachePort } from '../cache/cache-port.js';
import { bindArtifacts, missingArtifacts, type ToolArtifacts } from '../context/bound-artifacts.js';
import { guardCache, guardLedger, guardWorkspace } from '../context/guarded-ports.js';
import { type LogLevel, logEntry } from '../context/log-entry.js';
import { type SettledGuard, settledGuard } from '../context/settled-guard.js';
import type {
  Identity,
  ProgressPayload,
  RunLedger,
  ToolDispatch,
  ToolExecutionContext,
} from '../context/types.js';
import type { Credential } from '../credentials/credential.js';
import type { AskForAccess, CredentialsAccess } from '../credentials/credentials-access.js';
import { type ErrorInfo, ToolctxError } from '../errors.js';
import { customNameProblem } from '../events/catalogue.js';
import type { Phase } from '../policy/phase.js';
import type { Taint } from '../policy/taint.js';
import { trifectaDecision, trifectaRefusal } from '../policy/trifecta.js';
import { plainDataProblem } from '../progress/plain-data.js';
import { teardownKey } from '../teardown/teardown-key.js';
import type { TeardownScope } from '../teardown/teardown-registry.js';
import type { Workspace } from '../workspace/workspace.js';
import { Attempt, type Outcome } from './attempt.js';
import type { CallFacts, RunFacts } from './run-facts.js';

/**
 * Builds the context a tool receives and the attempt it belongs to (`ctx.attempt`, which the
 * tool's own view, {@link ToolExecutionContext}, does not show). The one place a
 * `ToolExecutionContext` is made: every door reaches tools through the runtime, and the runtime
 * through here. Run-wide facts are read through to the run and costly parts (the signal, bound
 * stores, `ctx.tools`, the guarded fetch) are made on first use, so a call that uses little pays
 * little.
 */
export function createToolContext(
  run: RunFacts,
  call: CallFacts,
  timeoutMs: number | undefined,
  dispatch: ((attempt: Attempt, call: CallFacts) => ToolDispatch) | undefined,
): ToolExecutionContext & { readonly attempt: Attempt } {
  return new ToolContext(run, call, timeoutMs, dispatch);
}

/**
 * Credentials for the run's tenant and principal, as `ctx.credentials` and a tool's `needs` get
 * them; a sign-in becomes an ask of `attempt` (run-asks.ts). The checks behind `get` load on first
 * use: only tools that ask for credentials need them.
 */
export function runCredentials(run: RunFacts, call: CallFacts, attempt: Attempt): CredentialsAccess {
  const { services, identity } = run;
  const who = { tenant: identity?.tenant, principal: identity?.principal };
  return {
    async get(request) {
      const [{ credentialsAccess }, redaction] = await Promise.all([
        import('../credentials/credentials-access.js'),
        import('../credentials/redact-secrets.js'),
      ]);
      // Kept with the call that holds the credential: what redacts its reports (tool-context.ts).
      call.secretRedactor = redaction.secretRedactor;
      const askForAccess: AskForAccess = (ask, key) =>
        import('./run-asks.js').then((asks) => asks.askFrom(attempt, run, call, ask, key));
      return credentialsAccess(services.credentials, who, services.onAuthorizationUrl, askForAccess).get(
        request,
      );
    },
  };
}

/** The parts of a context made on first use, kept apart so a call that uses none makes a smaller context. */
interface MadeParts {
  dispatch?: ToolDispatch;
  boundArtifacts?: ToolArtifacts;
  guard?: SettledGuard;
  guardedLedger?: RunLedger;
  guardedCache?: CachePort;
  guardedWorkspace?: Workspace;
  access?: CredentialsAccess;
  /** Credential values this call obtained through `ctx.credentials`, redacted from what it reports. */
  obtained?: string[];
  /** What takes the call's credential values out, made when first needed and again when it obtains one more. */
  redaction?: (data: unknown) => unknown;
  guardedFetch?: Promise<(input: string | URL | Request, init?: RequestInit) => Promise<Response>>;
}

class ToolContext implements ToolExecutionContext {
  /** The execution this context belongs to: its signal, timeout and outcome. */
  readonly attempt: Attempt;
  private reports = 0;
  private madeParts: MadeParts | undefined;

  constructor(
    private readonly run: RunFacts,
    private readonly call: CallFacts,
    timeoutMs: number | undefined,
    private readonly makeDispatch: ((attempt: Attempt, call: CallFacts) => ToolDispatch) | undefined,
  ) {
    this.attempt = new Attempt(timeoutMs, call.toolName, this);
  }

  private get made(): MadeParts {
    this.madeParts ??= {};
    return this.madeParts;
  }

  get runId(): string | undefined {
    return this.run.runId;
  }
  get sessionId(): string | undefined {
    return this.run.sessionId;
  }
  get identity(): Readonly<Identity> | undefined {
    return this.run.identity;
  }
  get state(): Readonly<Record<string, unknown>> {
    return this.run.state;
  }
  get meta(): Readonly<Record<string, unknown>> | undefined {
    return this.call.meta;
  }
  get phase(): Phase {
    return this.run.phase;
  }
  get taint(): Readonly<Taint> {
    return this.run.services.taint.get(this.run.taintKey);
  }
  get toolCallId(): string {
    return this.call.toolCallId;
  }
  get toolName(): string {
    return this.call.toolName;
  }
  get iteration(): number {
    return this.call.iteration;
  }
  get wanted(): Readonly<Record<string, ArtifactMeta>> | undefined {
    return this.call.wanted;
  }
  get credential(): Credential | undefined {
    return this.call.credential;
  }
  get approval(): { readonly approvalId: string; readonly reason?: string } | undefined {
    return this.call.approval;
  }
  get tools(): ToolDispatch | undefined {
    if (!this.makeDispatch) return undefined;
    const made = this.made;
    made.dispatch ??= this.makeDispatch(this.attempt, this.call);
    return made.dispatch;
  }
  get hasArtifacts(): boolean {
    return this.run.services.artifacts !== undefined;
  }
  get artifacts(): ToolArtifacts {
    const store = this.run.services.artifacts;
    if (!store) return missingArtifacts;
    const made = this.made;
    made.boundArtifacts ??= bindArtifacts(store, {
      scope: this.run.scope,
      runId: this.run.runId,
      toolCallId: this.call.toolCallId,
      parentId: this.call.parentId,
      log: this.run.log,
      guard: this.guard,
      redaction: () => this.redaction,
      note: (change) => this.run.noteArtifact(this.call, change),
    });
    return made.boundArtifacts;
  }
  get hasCredentials(): boolean {
    return this.run.services.credentials !== undefined;
  }
  get credentials(): CredentialsAccess {
    const made = this.made;
    if (!made.access) {
      const access = runCredentials(this.run, this.call, this.attempt);
      made.access = {
        get: async (request) => {
          const credential = await access.get(request);
          made.obtained ??= [];
          made.obtained.push(credential.value);
          made.redaction = undefined;
          return credential;
        },
      };
    }
    return made.access;
  }

  /**
   * Takes the credential values this call holds (none may reach an event) out of what it
   * reports; undefined while it holds none.
   */
  private get redaction(): ((data: unknown) => unknown) | undefined {
    const declared = this.call.credential?.value;
    const obtained = this.madeParts?.obtained;
    if (declared === undefined && !obtained) return undefined;
    const made = this.made;
    if (!made.redaction) {
      const secrets = declared === undefined ? obtained! : obtained ? [declared, ...obtained] : [declared];
      // Loaded with the credential (runCredentials): every credential a call holds came through it.
      made.redaction = this.call.secretRedactor!(secrets);
    }
    return made.redaction;
  }

  get signal(): AbortSignal {
    return this.attempt.signal;
  }

  /** The error a call fails with is a report too: its message and details lose the call's credentials. */
  redactOutcome(outcome: Outcome): Outcome {
    const redaction = this.redaction;
    if (!redaction || outcome.ok) return outcome;
    try {
      return { ok: false, error: redaction(outcome.error) as ErrorInfo };
    } catch {
      // Details too deep to walk are dropped rather than passed on unredacted.
      const { details: _dropped, ...rest } = outcome.error;
      return { ok: false, error: redaction(rest) as ErrorInfo };
    }
  }
  get teardownScopes(): readonly TeardownScope[] {
    return this.run.services.door.teardownScopes;
  }
  get ledger(): RunLedger | undefined {
    const { ledger } = this.run;
    if (!ledger) return undefined;
    const made = this.made;
    made.guardedLedger ??= guardLedger(ledger, this.guard);
    return made.guardedLedger;
  }
  get cache(): CachePort | undefined {
    const { cache } = this.run.services;
    if (!cache) return undefined;
    const made = this.made;
    made.guardedCache ??= guardCache(cache, this.guard);
    return made.guardedCache;
  }
  get workspace(): Workspace | undefined {
    const { workspace } = this.run;
    if (!workspace) return undefined;
    const made = this.made;
    made.guardedWorkspace ??= guardWorkspace(workspace, this.guard);
    return made.guardedWorkspace;
  }

  /** What refuses this call's writes once it has ended; made for the first port that needs it. */
  private get guard(): SettledGuard {
    const made = this.made;
    made.guard ??= settledGuard(this.call.toolName, this.attempt);
    return made.guard;
  }

  onTeardown(cleanup: () => unknown, { scope }: { scope: TeardownScope }): string {
    if (typeof cleanup !== 'function') {
      throw new ToolctxError(
        'args-invalid',
        'onTeardown takes a cleanup function first: ctx.onTeardown(() => close(), { scope }).',
      );
    }
    const key = teardownKey(
      {
        identity: this.run.identity,
        runId: this.run.runId,
        sessionId: this.run.sessionId,
        toolCallId: this.call.toolCallId,
      },
      scope,
    );
    const registration = { toolName: this.call.toolName, scope, key, cleanup };
    if (scope === 'call' || scope === 'run') {
      this.run.teardown.register(registration);
      if (scope === 'call') this.call.callTeardown = true;
      return key;
    }
    this.run.services.sessions.registry.register(registration);
    return key;
  }

  ask(request: AskForm): Promise<AskFormAnswer>;
  ask(request: AskUrl): Promise<AskAnswer>;
  ask(request: AskRequest): Promise<AskAnswer> {
    if (this.attempt.settled) return Promise.reject(this.guard.refusal('ctx.ask'));
    // Loaded on the first ask: most calls never ask.
    return import('./run-asks.js').then((asks) => asks.askFrom(this.attempt, this.run, this.call, request));
  }

  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    if (this.attempt.settled) return Promise.reject(this.guard.refusal('ctx.fetch'));
    if (this.call.effect !== 'send') {
      return Promise.reject(
        new ToolctxError(
          'policy-refused',
          `"${this.call.toolName}" is a ${this.call.effect} tool; only tools declared with effect: 'send' may use ctx.fetch.`,
          { details: { policy: 'egress', reason: 'not-a-send-tool' } },
        ),
      );
    }
    // The egress guard loads on the first fetch: only send tools use it, and a page whose tools
    // never fetch does not download it (it is a third of the runtime's code).
    const made = this.made;
    made.guardedFetch ??= import('../policy/guarded-fetch.js').then(({ createGuardedFetch }) =>
      createGuardedFetch({
        policy: this.run.services.egress,
        signal: () => this.signal,
        beforeSend: () => {
          const decision = trifectaDecision(this.taint, 'send', this.run.services.trifecta);
          if (decision === 'allow' || (decision === 'approve' && this.call.approval)) return null;
          return trifectaRefusal(this.call.toolName);
        },
      }),
    );
    return made.guardedFetch.then((guarded) => guarded(input, init));
  }

  progress(payload: ProgressPayload): void {
    try {
      if (this.attempt.settled) {
        this.run.stats.reportsDropped++;
        return;
      }
      const { log, stats } = this.run;
      const problem = plainDataProblem(payload);
      if (problem) {
        stats.reportsRejected++;
        const data = { tool: this.call.toolName, reason: `The report holds ${problem}.` };
        log.emit('tool.report_rejected', data, this.call.toolCallId, this.call.parentId);
        return;
      }
      const redaction = this.redaction;
      const reported = redaction ? (redaction(payload) as ProgressPayload) : payload;
      const data = { tool: this.call.toolName, payload: reported, n: ++this.reports };
      log.emit('tool.progress', data, this.call.toolCallId, this.call.parentId);
    } catch {
      // Progress never throws into a tool; the event log already reports failing sinks.
    }
  }

  log(level: LogLevel, message: string, data?: unknown): void {
    try {
      const { log, stats } = this.run;
      // A report like progress: dropped and counted in the same counters once the call settled.
      if (this.attempt.settled) {
        stats.reportsDropped++;
        return;
      }
      const entry = logEntry(this.call.toolName, level, message, data, this.redaction);
      if ('problem' in entry) {
        stats.reportsRejected++;
        const rejected = { tool: this.call.toolName, reason: entry.problem };
        log.emit('tool.report_rejected', rejected, this.call.toolCallId, this.call.parentId);
        return;
      }
      log.emit('tool.log', entry, this.call.toolCallId, this.call.parentId);
    } catch {
      // A log entry never throws into a tool; the event log already reports failing sinks.
    }
  }

  emit(type: string, data?: unknown): void {
    const name = type.startsWith('custom.') ? type.slice('custom.'.length) : type;
    if (name === '') throw new TypeError('ctx.emit needs an event name, such as ctx.emit("step", {...}).');
    const badName = customNameProblem(name);
    if (badName) throw new TypeError(`ctx.emit: ${badName}; such as ctx.emit("step", {...}).`);
    const problem = plainDataProblem(data);
    if (problem) throw new TypeError(`ctx.emit("${name}") data holds ${problem}; send plain data.`);
    if (this.attempt.settled) throw this.guard.refusal(`ctx.emit("${name}")`);
    const redaction = this.redaction;
    const written = redaction && data !== undefined ? redaction(data) : (data ?? null);
    this.run.log.emit(`custom.${name}`, written, this.call.toolCallId, this.call.parentId);
  }
}

/**
 * A context (with its attempt) that never runs, kept for the life of the module, so that V8 keeps
 * the hidden classes of contexts and attempts while no call is in flight: see `idleInvocation`.
 */
export const idleContext = createToolContext(
  undefined as never,
  { toolName: '' } as CallFacts,
  undefined,
  undefined,
);
