/**
 * The rehearsal's measurements, each through the front as a client sees it:
 * - cold answers: for each query kind, `instances` fresh instances asked one drawn query each (init, then the first
 *   answer; the instance is retired after it), `parallel` at a time;
 * - the fleet: open Poisson arrivals at `rate` requests/s for `seconds`, the mix, from zero instances.
 */
import http from 'node:http';
import { createWeightedPicker, type Random } from '../demo/random';
import type { LambdaInstance } from './lambda/instance';
import { type FrontRecord, newRecord, TAG_HEADER } from './network/front';
import { type PortCounters, subtractCounters } from './network/shaper';
import type { Stage } from './stage';
import { FLEET_MIX, type QueryKind, type Workload } from './workload';

/** One request's record from the front, with what it cost in S3. */
export interface Measured extends FrontRecord {
  kind: QueryKind;
  /** S3 traffic of the instance, init and first answer together (cold answers only). */
  s3?: PortCounters;
  /** S3 traffic of the instance's init alone (cold answers only). */
  s3Init?: PortCounters;
}

export class Client {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  private readonly records = new Map<string, FrontRecord>();
  private next = 0;

  constructor(
    private readonly origin: string,
    private readonly key: string,
  ) {}

  /** The front's `onRecord`. */
  readonly collect = (record: FrontRecord): void => {
    if (record.tag !== null) this.records.set(record.tag, record);
  };

  /** GETs `path` and resolves with the front's record of it (status, timings), or a transport error. */
  get(path: string): Promise<FrontRecord> {
    this.next += 1;
    const tag = `r${this.next}`;
    return new Promise((resolve) => {
      const req = http.get(
        `${this.origin}${path}`,
        { agent: this.agent, headers: { authorization: `Bearer ${this.key}`, [TAG_HEADER]: tag } },
        (res) => {
          res.resume();
          res.on('end', () => {
            // The front's record is written when its response ends, before the client reads the end.
            setImmediate(() => {
              const record = this.records.get(tag);
              this.records.delete(tag);
              resolve(record ?? newRecord(path, tag, `no front record (HTTP ${res.statusCode})`));
            });
          });
        },
      );
      req.on('error', (err) => resolve(newRecord(path, tag, err.message)));
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Cold answers of every kind: `instances` fresh instances each, one query each. */
export async function measureColdAnswers(
  stage: Stage,
  client: Client,
  workload: Workload,
  kinds: readonly QueryKind[],
  options: { instances: number; parallel: number; rng: Random; say: (line: string) => void },
): Promise<Measured[]> {
  const out: Measured[] = [];
  if (options.instances === 0) return out;
  stage.pool.fresh = true;
  try {
    for (const kind of kinds) {
      const urls = workload[kind];
      if (urls.length === 0) {
        options.say(`  ${kind}: no drawn queries in this snapshot, skipped`);
        continue;
      }
      const picks = Array.from({ length: options.instances }, () => options.rng.pick(urls));
      let next = 0;
      const started = performance.now();
      const lane = async () => {
        for (let i = next++; i < picks.length; i = next++) {
          const record = await client.get(picks[i] as string);
          const id = record.instanceId;
          out.push({
            ...record,
            kind,
            ...(id !== null && stage.s3ByInstance.has(id) ? { s3: stage.s3ByInstance.get(id) } : {}),
            ...(id !== null && stage.s3AtInit.has(id) ? { s3Init: stage.s3AtInit.get(id) } : {}),
          });
        }
      };
      await Promise.all(Array.from({ length: options.parallel }, lane));
      const mine = out.filter((m) => m.kind === kind);
      const answers = mine.map(answerMs).sort((a, b) => a - b);
      options.say(
        `  ${kind}: ${mine.length} fresh instances in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
          `first answer p50 ${quantile(answers, 0.5).toFixed(0)} ms, p99 ${quantile(answers, 0.99).toFixed(0)} ms, ` +
          `${mine.filter((m) => m.status >= 500 || m.status === 0).length} errors`,
      );
    }
  } finally {
    stage.pool.fresh = false;
  }
  return out;
}

/** The fleet: open Poisson arrivals, the mix, from zero instances. */
export async function measureFleet(
  stage: Stage,
  client: Client,
  workload: Workload,
  options: { rate: number; seconds: number; rng: Random; say: (line: string) => void },
): Promise<{ records: Measured[]; wallSeconds: number; s3: PortCounters; instances: LambdaInstance[] }> {
  await stage.pool.retireAll();
  const startedBefore = stage.pool.all.length;
  const s3Before = stage.s3Total();
  const mix = Object.entries(FLEET_MIX).filter(([kind]) => workload[kind as QueryKind].length > 0) as [
    QueryKind,
    number,
  ][];
  const kinds = createWeightedPicker(mix);
  const pending: Promise<void>[] = [];
  const records: Measured[] = [];
  const start = performance.now();
  const end = start + options.seconds * 1000;
  let due = start;
  let lastSay = start;
  while (true) {
    // Exponential gaps: a Poisson process at `rate`, open (arrivals do not wait for answers).
    due += (-Math.log(1 - options.rng.next()) / options.rate) * 1000;
    if (due >= end) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const kind = kinds.pick(options.rng);
    const url = options.rng.pick(workload[kind]);
    pending.push(
      client.get(url).then((record) => {
        records.push({ ...record, kind });
      }),
    );
    if (performance.now() - lastSay > 30_000) {
      lastSay = performance.now();
      options.say(
        `  fleet: ${((lastSay - start) / 1000).toFixed(0)} s, ${pending.length} sent, ${records.length} answered, ` +
          `${stage.pool.size} instances live`,
      );
    }
  }
  await Promise.all(pending);
  const wallSeconds = (performance.now() - start) / 1000;
  const s3 = subtractCounters(stage.s3Total(), s3Before);

  return { records, wallSeconds, s3, instances: stage.pool.all.slice(startedBefore) };
}

/** A cold answer's time without the init it waited for (reported apart). */
export function answerMs(m: FrontRecord): number {
  return m.ms - (m.initMs ?? 0);
}

export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] as number;
}
