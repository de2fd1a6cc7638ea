/**
 * The rehearsal's report: init, cold first answers per query kind, the fleet, and the cost of a million calls at
 * AWS's list prices (report/prices.ts), split into the fixed per-request part and the part the design controls
 * (Lambda duration, init included, and S3 requests).
 */
import type { LambdaInstance } from '../lambda/instance';
import type { FunctionSpec } from '../lambda/runtime-process';
import type { PortCounters } from '../network/shaper';
import { answerMs, type Measured, quantile } from '../phases';
import { QUERY_KINDS } from '../workload';
import { PRICES } from './prices';

export interface FleetFigures {
  records: Measured[];
  wallSeconds: number;
  s3: PortCounters;
  /** The instances that served the fleet (started during it; for billed time). */
  instances: LambdaInstance[];
  dynamo: PortCounters;
}

const round = (n: number, digits = 1) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);
const isError = (m: Measured) => m.status >= 500 || m.status === 0;

export function coldFigures(records: Measured[]) {
  const out: Record<string, unknown> = {};
  for (const kind of QUERY_KINDS) {
    const mine = records.filter((m) => m.kind === kind);
    if (mine.length === 0) continue;
    const answers = mine.map(answerMs).sort((a, b) => a - b);
    const bytes = mine.map((m) => m.s3?.bytesOut ?? 0);
    const gets = mine.map((m) => (m.s3 ? m.s3.gets + m.s3.heads : 0));
    out[kind] = {
      instances: mine.length,
      p50_ms: round(quantile(answers, 0.5)),
      p99_ms: round(quantile(answers, 0.99)),
      max_ms: round(answers.at(-1) ?? Number.NaN),
      init_p50_ms: round(
        quantile(
          mine.map((m) => m.initMs ?? 0).sort((a, b) => a - b),
          0.5,
        ),
      ),
      s3_bytes_max: Math.max(...bytes),
      s3_gets_max: Math.max(...gets),
      result_bytes_max: Math.max(...mine.map((m) => m.resultBytes)),
      errors_5xx: mine.filter(isError).length,
      statuses: countBy(mine.map((m) => String(m.status))),
    };
  }
  return out;
}

export function initFigures(records: Measured[]) {
  const cold = records.filter((m) => m.initMs !== null);
  const inits = cold.map((m) => m.initMs as number).sort((a, b) => a - b);
  return {
    cold_starts: inits.length,
    p50: round(quantile(inits, 0.5)),
    max: round(inits.at(-1) ?? Number.NaN),
    init_s3_bytes_max: Math.max(0, ...cold.map((m) => m.s3Init?.bytesOut ?? 0)),
    init_s3_gets_max: Math.max(0, ...cold.map((m) => (m.s3Init ? m.s3Init.gets + m.s3Init.heads : 0))),
  };
}

export function fleetFigures(fleet: FleetFigures, spec: FunctionSpec) {
  const { records } = fleet;
  const ms = records.map((m) => m.ms).sort((a, b) => a - b);
  // Per-request costs are per invocation that ran: a request this machine could not serve within API Gateway's
  // 30 s (a 504 while it waited for an instance) cost Lambda, S3 and DynamoDB nothing, or less than it would.
  const invocations = fleet.instances.reduce((sum, i) => sum + i.invocations, 0);
  const n = Math.max(1, invocations);
  const gbSeconds = billedGbSeconds(fleet.instances, spec.memoryMb);
  const writes = fleet.dynamo.targets['DynamoDB_20120810.UpdateItem'] ?? 0;
  const reads = fleet.dynamo.targets['DynamoDB_20120810.GetItem'] ?? 0;
  return {
    requests: records.length,
    invocations,
    rate_per_s: round(records.length / fleet.wallSeconds, 2),
    answered_per_s: round(records.filter((m) => m.status > 0 && m.status < 500).length / fleet.wallSeconds, 2),
    p50_ms: round(quantile(ms, 0.5)),
    p99_ms: round(quantile(ms, 0.99)),
    max_ms: round(ms.at(-1) ?? Number.NaN),
    errors_5xx: records.filter(isError).length,
    gateway_timeouts_504: records.filter((m) => m.status === 504).length,
    throttled: records.filter((m) => m.throttled).length,
    instances_started: fleet.instances.length,
    cold_share: round(records.filter((m) => m.cold).length / Math.max(1, records.length), 4),
    cold_p50_ms: round(
      quantile(
        records
          .filter((m) => m.cold)
          .map((m) => m.ms)
          .sort((a, b) => a - b),
        0.5,
      ),
    ),
    warm_p99_ms: round(
      quantile(
        records
          .filter((m) => !m.cold)
          .map((m) => m.ms)
          .sort((a, b) => a - b),
        0.99,
      ),
    ),
    machine_wait_max_ms: round(Math.max(0, ...records.map((m) => m.machineWaitMs))),
    s3_gets_per_request: round((fleet.s3.gets + fleet.s3.heads) / n, 3),
    s3_bytes_per_request: Math.round(fleet.s3.bytesOut / n),
    dynamo_writes_per_request: round(writes / n, 3),
    dynamo_reads_per_request: round(reads / n, 3),
    gb_seconds_per_request: round(gbSeconds / n, 5),
    by_kind: Object.fromEntries(
      QUERY_KINDS.map((kind) => {
        const mine = records.filter((m) => m.kind === kind);
        const t = mine.map((m) => m.ms).sort((a, b) => a - b);
        return [kind, { requests: mine.length, p50_ms: round(quantile(t, 0.5)), p99_ms: round(quantile(t, 0.99)) }];
      }).filter(([, v]) => (v as { requests: number }).requests > 0),
    ),
  };
}

/**
 * The cost of a million calls if every call were a cold instance's first answer (the cold phase's own figures:
 * init and the first invocation billed, its S3 requests): the bound the design controls when traffic spreads over
 * more instances than it warms.
 */
export function coldCostPerMillion(records: Measured[], spec: FunctionSpec) {
  const cold = records.filter((m) => m.initMs !== null && m.durationMs !== null);
  if (cold.length === 0) return null;
  const gb = spec.memoryMb / 1024;
  const gbSeconds =
    cold.reduce((sum, m) => sum + Math.ceil(m.initMs as number) + Math.ceil(m.durationMs as number), 0) /
    1000 /
    cold.length;
  const gets = cold.reduce((sum, m) => sum + (m.s3 ? m.s3.gets + m.s3.heads : 0), 0) / cold.length;
  const lambdaDuration = gbSeconds * gb * 1_000_000 * PRICES.lambdaGbSecond[spec.architecture].usd;
  const s3 = (gets * 1_000_000 * PRICES.s3Get.usd) / 1000;
  return {
    gb_seconds_per_call: round(gbSeconds * gb, 3),
    s3_requests_per_call: round(gets, 1),
    controlled: round(lambdaDuration + s3, 2),
    lambda_duration_with_init: round(lambdaDuration, 2),
    s3_requests: round(s3, 2),
  };
}

/** Lambda's billed GB-seconds: init plus every invocation, each rounded up to the millisecond. */
export function billedGbSeconds(instances: LambdaInstance[], memoryMb: number): number {
  let ms = 0;
  for (const i of instances) ms += Math.ceil(i.initMs) + i.billedMs;
  return (ms / 1000) * (memoryMb / 1024);
}

/** The cost of a million calls from the fleet's per-request figures. */
export function costPerMillion(fleet: ReturnType<typeof fleetFigures>, spec: FunctionSpec) {
  const m = 1_000_000;
  const lambdaDuration = (fleet.gb_seconds_per_request ?? 0) * m * PRICES.lambdaGbSecond[spec.architecture].usd;
  const s3 = ((fleet.s3_gets_per_request ?? 0) * m * PRICES.s3Get.usd) / 1000;
  const lambdaRequests = PRICES.lambdaRequest.usd;
  const httpApi = PRICES.httpApiRequest.usd;
  const dynamo =
    (fleet.dynamo_writes_per_request ?? 0) * PRICES.dynamoWrite.usd +
    (fleet.dynamo_reads_per_request ?? 0) * 0.5 * PRICES.dynamoRead.usd;
  const fixed = lambdaRequests + httpApi + dynamo;
  const controlled = lambdaDuration + s3;
  return {
    total: round(fixed + controlled, 2),
    fixed: round(fixed, 2),
    controlled: round(controlled, 2),
    parts: {
      lambda_duration_with_init: round(lambdaDuration, 2),
      s3_requests: round(s3, 2),
      lambda_requests: lambdaRequests,
      http_api: httpApi,
      dynamodb_metering_and_keys: round(dynamo, 3),
    },
    listed_apart: { cloudfront_requests: PRICES.cloudFrontRequest.usd, waf_requests: PRICES.wafRequest.usd },
    architecture: spec.architecture,
    prices: PRICES,
  };
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
