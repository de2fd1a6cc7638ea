/**
 * The function's fleet of execution environments, as Lambda runs it: an invocation goes to an idle warm instance
 * when there is one, else to a new one (a cold start); instances idle past `idleRetireMs` are retired. When the
 * template sets reserved concurrency, an invocation past it is throttled (API Gateway then answers as it does for a
 * throttled integration). This machine's own limit (`maxInstances`, from its memory) is not Lambda's: an
 * invocation past it waits for an instance and the wait is counted apart.
 */
import { type InvokeFigures, LambdaInstance } from './instance';
import type { FunctionSpec, HostSetup } from './runtime-process';

export interface PoolOptions {
  /** Retire an instance idle this long (Lambda keeps idle environments for minutes, unspecified). */
  idleRetireMs: number;
  /** The machine's cap on live instances. */
  maxInstances: number;
  /** Called when an instance starts, before its init (to give it its own S3 and DynamoDB ports, say). */
  prepare?: (instance: LambdaInstance) => Promise<void> | void;
  /** Called when an instance's init is over, before its first invocation. */
  initialized?: (instance: LambdaInstance) => void;
  /** Called once an instance is retired or dies. */
  retired?: (instance: LambdaInstance) => void;
}

export type PoolInvoke =
  | (InvokeFigures & {
      throttled: false;
      instance: LambdaInstance;
      /** The init this invocation waited for, or null on a warm instance. */
      initMs: number | null;
      /** Time spent waiting for the machine's cap (not Lambda's behaviour). */
      machineWaitMs: number;
    })
  | { throttled: true };

export class LambdaPool {
  private readonly live = new Set<LambdaInstance>();
  private starting = 0;
  private readonly waiters: (() => void)[] = [];
  private readonly reaper: NodeJS.Timeout;
  readonly all: LambdaInstance[] = [];
  initFailures = 0;
  private closed = false;
  /**
   * Every invocation on a fresh instance, retired after it (the cold-answer measurements); otherwise warm instances
   * are reused as Lambda reuses them.
   */
  fresh = false;

  constructor(
    readonly spec: FunctionSpec,
    private readonly host: HostSetup,
    private readonly options: PoolOptions,
  ) {
    this.reaper = setInterval(() => void this.retireIdle(), 1000);
    this.reaper.unref();
  }

  get size(): number {
    return this.live.size + this.starting;
  }

  async invoke(event: Buffer): Promise<PoolInvoke> {
    if (this.fresh) return this.invokeFresh(event);
    const waitStart = performance.now();
    for (;;) {
      if (this.closed) throw new Error('the function is being torn down');
      const idle = [...this.live].find((i) => !i.busy && i.dead === null);
      if (idle) {
        const machineWaitMs = performance.now() - waitStart;
        const figures = await idle.invoke(event);
        this.afterInvoke(idle);
        return { ...figures, throttled: false, instance: idle, initMs: null, machineWaitMs };
      }
      const reserved = this.spec.reservedConcurrency;
      if (reserved !== null && this.size >= reserved) return { throttled: true };
      if (this.size < this.options.maxInstances) break;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    const machineWaitMs = performance.now() - waitStart;
    this.starting += 1;
    const instance = new LambdaInstance(this.spec, this.host);
    this.all.push(instance);
    try {
      await this.options.prepare?.(instance);
      await instance.start();
    } catch (err) {
      this.initFailures += 1;
      this.starting -= 1;
      await instance.stop();
      this.options.retired?.(instance);
      this.wake();
      throw err;
    }
    this.starting -= 1;
    this.options.initialized?.(instance);
    this.live.add(instance);
    const figures = await instance.invoke(event);
    this.afterInvoke(instance);
    return { ...figures, throttled: false, instance, initMs: instance.initMs, machineWaitMs };
  }

  /** Retires every live instance: the next invocations start from zero, as after a deploy. */
  async retireAll(): Promise<void> {
    await Promise.all([...this.live].map((i) => this.retire(i)));
  }

  async close(): Promise<void> {
    clearInterval(this.reaper);
    // Invocations still waiting for this machine's cap end now (their requests were answered 504 long ago).
    this.closed = true;
    for (const wake of this.waiters.splice(0)) wake();
    await Promise.all([...this.live].map((i) => this.retire(i)));
  }

  private async invokeFresh(event: Buffer): Promise<PoolInvoke> {
    const instance = new LambdaInstance(this.spec, this.host);
    this.all.push(instance);
    try {
      await this.options.prepare?.(instance);
      try {
        await instance.start();
      } catch (err) {
        this.initFailures += 1;
        throw err;
      }
      this.options.initialized?.(instance);
      const figures = await instance.invoke(event);
      return { ...figures, throttled: false, instance, initMs: instance.initMs, machineWaitMs: 0 };
    } finally {
      await instance.stop();
      this.options.retired?.(instance);
    }
  }

  private afterInvoke(instance: LambdaInstance): void {
    if (instance.dead !== null) void this.retire(instance);
    this.wake();
  }

  private wake(): void {
    this.waiters.shift()?.();
  }

  private async retire(instance: LambdaInstance): Promise<void> {
    if (!this.live.delete(instance)) return;
    await instance.stop();
    this.options.retired?.(instance);
    this.wake();
  }

  private async retireIdle(): Promise<void> {
    const now = performance.now();
    for (const instance of [...this.live]) {
      if (!instance.busy && now - instance.idleSince > this.options.idleRetireMs) await this.retire(instance);
    }
  }
}
