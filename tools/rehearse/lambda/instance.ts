/**
 * One emulated Lambda execution environment: the function's asset run by the Runtime Interface Client on Node 22,
 * in a mount namespace of its own whose `/tmp` is an empty folder of this instance, under its own memory, CPU and
 * freezer cgroups (lambda/cgroups.ts). It answers one invocation at a time, is frozen between invocations, and is
 * killed when an invocation passes the function's timeout or the process dies (OOM included), as Lambda does.
 *
 * Without cgroups (not root, or another machine) it runs unconfined, its cache folder pointed at its own folder
 * instead of a private `/tmp`, and says so (`confined: false`).
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { InstanceCgroups } from './cgroups';
import { RuntimeApi, type RuntimeResult } from './runtime-api';
import {
  type FunctionSpec,
  type HostSetup,
  type InstanceSetup,
  runtimeEnvironment,
  spawnRuntime,
} from './runtime-process';

/** How an invocation ended, as API Gateway sees it. */
export type InvokeOutcome =
  | { kind: 'response'; body: Buffer }
  | { kind: 'error'; reason: 'function_error' | 'timeout' | 'crashed' | 'oom'; detail: string };

export interface InvokeFigures {
  outcome: InvokeOutcome;
  /** From the hand-over to the runtime until its result (Lambda's `Duration`). */
  durationMs: number;
}

const KILL_GRACE_MS = 2000;

export class LambdaInstance {
  readonly id: string;
  /** Lambda's `Init Duration`: from the start of the process until the runtime first asks for work. */
  initMs = 0;
  invocations = 0;
  /** Summed invocation durations, each rounded up to the millisecond as Lambda bills them (init apart). */
  billedMs = 0;
  tmpBytesMax = 0;
  memoryMaxBytes = 0;
  dead: string | null = null;
  idleSince = performance.now();
  private child: ChildProcess | null = null;
  private cgroups: InstanceCgroups | null = null;
  private api: RuntimeApi | null = null;
  private readonly tmpDir: string;
  private frozen = false;
  /** The runtime has asked for its next event and waits. */
  private waitingForNext = false;
  /** Freezer writes in order: a thaw never overtaken by the freeze before it. */
  private freezer: Promise<void> = Promise.resolve();
  private inFlight = false;
  private initWaiter: { resolve: () => void; reject: (e: Error) => void } | null = null;
  private readonly exited: Promise<string>;
  private markExited: (why: string) => void = () => undefined;
  private extra: Record<string, string> = {};

  constructor(
    private readonly spec: FunctionSpec,
    private readonly host: HostSetup,
  ) {
    this.id = randomUUID().slice(0, 8);
    this.tmpDir = path.join(host.workDir, `instance-${this.id}`, 'tmp');
    this.exited = new Promise((resolve) => {
      this.markExited = resolve;
    });
  }

  /** Variables added to the function's environment of this instance (before {@link start}): its own endpoints. */
  addEnvironment(variables: Record<string, string>): void {
    this.extra = { ...this.extra, ...variables };
  }

  /** Starts the environment and waits for its init to end (the first `next`); throws on an init error. */
  async start(): Promise<void> {
    await mkdir(this.tmpDir, { recursive: true });
    if (this.host.confined) this.cgroups = await InstanceCgroups.create(this.id, this.spec.memoryMb);
    const arn = `arn:aws:lambda:${this.spec.environment.AWS_REGION ?? 'us-east-1'}:000000000000:function:${this.spec.functionName}`;
    this.api = await RuntimeApi.start(arn, {
      onNext: () => this.onNext(),
      onInitError: (type, body) => this.initWaiter?.reject(new Error(`init error ${type}: ${body.toString('utf8')}`)),
    });
    const env = runtimeEnvironment(this.spec, this.host, this.setup(), this.api.address);
    const started = performance.now();
    const initDone = new Promise<void>((resolve, reject) => {
      this.initWaiter = { resolve, reject };
    });
    this.child = spawnRuntime(this.spec, this.host, this.setup(), env);
    this.child.once('exit', (code, signal) => {
      const why = `exited (code ${code}, signal ${signal})`;
      this.dead ??= why;
      this.initWaiter?.reject(new Error(`the runtime ${why} during init`));
      this.markExited(why);
    });
    const timer = setTimeout(
      () => this.initWaiter?.reject(new Error('init passed the 10 s that Lambda gives an on-demand init')),
      10_000,
    );
    try {
      await initDone;
    } finally {
      clearTimeout(timer);
      this.initWaiter = null;
    }
    this.initMs = performance.now() - started;
  }

  get busy(): boolean {
    return this.inFlight;
  }

  /** Runs one invocation (thawing the environment first); kills the instance on a timeout or a crash. */
  async invoke(event: Buffer): Promise<InvokeFigures> {
    if (this.inFlight) throw new Error(`instance ${this.id} is busy`);
    if (this.dead !== null || this.api === null) throw new Error(`instance ${this.id} is gone: ${this.dead}`);
    this.inFlight = true;
    const started = performance.now();
    try {
      if (this.frozen) {
        this.frozen = false;
        await this.setFrozen(false);
      }
      const requestId = randomUUID();
      this.waitingForNext = false;
      const timeoutMs = this.spec.timeoutSeconds * 1000;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<RuntimeResult | 'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const died = this.exited.then((why) => ({ died: why }));
      const result = await Promise.race([
        this.api.invoke({ requestId, event, deadlineMs: Date.now() + timeoutMs }),
        timedOut,
        died,
      ]);
      clearTimeout(timer);
      const durationMs = performance.now() - started;
      this.invocations += 1;
      this.billedMs += Math.ceil(durationMs);
      let outcome: InvokeOutcome;
      if (result === 'timeout') {
        outcome = { kind: 'error', reason: 'timeout', detail: `Task timed out after ${this.spec.timeoutSeconds} s` };
        await this.kill('timed out');
      } else if ('died' in result) {
        const oom = (await this.cgroups?.memory().catch(() => null))?.oomKills ?? 0;
        outcome = { kind: 'error', reason: oom > 0 ? 'oom' : 'crashed', detail: result.died };
        this.api.abandon({ kind: 'error', errorType: 'Runtime.ExitError', body: Buffer.from(result.died) });
      } else if (result.kind === 'response') {
        outcome = { kind: 'response', body: result.body };
      } else {
        outcome = { kind: 'error', reason: 'function_error', detail: `${result.errorType}: ${result.body.toString()}` };
      }
      await this.measure();
      return { outcome, durationMs };
    } finally {
      this.inFlight = false;
      this.idleSince = performance.now();
      this.freezeWhenIdle();
    }
  }

  /** Stops the environment and removes its cgroups and `/tmp` folder. */
  async stop(): Promise<void> {
    await this.kill('retired');
    await this.api?.close();
    await this.cgroups?.remove();
    await rm(path.dirname(this.tmpDir), { recursive: true, force: true });
  }

  private async kill(why: string): Promise<void> {
    this.dead ??= why;
    if (why !== 'retired') this.host.onLog?.(this.id, `rehearsal: instance killed (${why})`);
    const child = this.child;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    this.frozen = false;
    await this.setFrozen(false);
    child.kill('SIGKILL');
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, KILL_GRACE_MS))]);
  }

  private onNext(): void {
    if (this.initWaiter !== null) {
      // Init is over; the first invocation follows at once (an on-demand start), so nothing is frozen here.
      this.waitingForNext = true;
      this.initWaiter.resolve();
      return;
    }
    this.waitingForNext = true;
    this.freezeWhenIdle();
  }

  /** Lambda freezes an environment once its invocation is over and its runtime waits for the next event. */
  private freezeWhenIdle(): void {
    if (this.waitingForNext && !this.inFlight && !this.frozen && this.cgroups !== null && this.dead === null) {
      this.frozen = true;
      void this.setFrozen(true);
    }
  }

  /** Queues a freezer transition after the ones before it; resolves once the kernel reports it. */
  private setFrozen(frozen: boolean): Promise<void> {
    const groups = this.cgroups;
    if (groups === null) return Promise.resolve();
    this.freezer = this.freezer
      .then(() => (frozen ? groups.freeze() : groups.thaw()))
      .catch((err: unknown) => this.host.onLog?.(this.id, `freezer: ${(err as Error).message}`));
    return this.freezer;
  }

  /** `/tmp` in use (allocated blocks) and the group's peak memory, after an invocation. */
  private async measure(): Promise<void> {
    this.tmpBytesMax = Math.max(this.tmpBytesMax, await diskUsage(this.tmpDir));
    const memory = await this.cgroups?.memory().catch(() => null);
    if (memory) this.memoryMaxBytes = Math.max(this.memoryMaxBytes, memory.maxBytes);
  }

  private setup(): InstanceSetup {
    return { id: this.id, tmpDir: this.tmpDir, cgroups: this.cgroups, extra: this.extra };
  }
}

/** Bytes of disk allocated under `dir` (sparse files count what they hold). */
async function diskUsage(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await diskUsage(full);
    else if (entry.isFile())
      total += await stat(full).then(
        (s) => s.blocks * 512,
        () => 0,
      );
  }
  return total;
}
