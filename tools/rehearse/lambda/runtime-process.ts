/**
 * What an emulated execution environment runs, and how it is started: the function as the template describes it,
 * the host's setup, the environment Lambda gives a Node.js 22 function, and the Runtime Interface Client's process,
 * confined (its cgroups joined and its own folder mounted over `/tmp`, in a mount namespace of its own) or not.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { InstanceCgroups } from './cgroups';

/** The deployed function as the synthesized template describes it, and how to run it here. */
export interface FunctionSpec {
  functionName: string;
  /** The asset folder (`cdk.out/asset.<hash>`): LAMBDA_TASK_ROOT. */
  assetDir: string;
  /** `index.handler`. */
  handler: string;
  /** The template's environment, tokens resolved to the rehearsal's resources. */
  environment: Record<string, string>;
  memoryMb: number;
  ephemeralStorageMb: number;
  timeoutSeconds: number;
  architecture: 'x86_64' | 'arm64';
  /** Reserved concurrency when the template sets it, else null (the account's limit). */
  reservedConcurrency: number | null;
}

/** How instances are run on this machine. */
export interface HostSetup {
  /** A Node 22 binary. */
  node: string;
  /** `aws-lambda-ric`'s entry (index.mjs). */
  ric: string;
  /** Where each instance's `/tmp` folder is made. */
  workDir: string;
  /** cgroups and a private /tmp (root on a cgroup v1 host). */
  confined: boolean;
  /** Lines the function writes (its logs), with the instance id. */
  onLog?: (instanceId: string, line: string) => void;
}

/** One instance's own part of its process: its id, its `/tmp` folder, its cgroups (null: unconfined). */
export interface InstanceSetup {
  id: string;
  tmpDir: string;
  cgroups: InstanceCgroups | null;
  /** Variables added to the function's environment (its own endpoints). */
  extra: Record<string, string>;
}

/** What Lambda sets for a Node.js 22 function, then the function's own environment. */
export function runtimeEnvironment(
  spec: FunctionSpec,
  host: HostSetup,
  instance: InstanceSetup,
  runtimeApi: string,
): Record<string, string> {
  const env = spec.environment;
  const region = env.AWS_REGION ?? 'us-east-1';
  const base: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    AWS_REGION: region,
    AWS_DEFAULT_REGION: region,
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    AWS_LAMBDA_FUNCTION_NAME: spec.functionName,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(spec.memoryMb),
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${spec.functionName}`,
    AWS_LAMBDA_LOG_STREAM_NAME: `rehearse/${instance.id}`,
    AWS_LAMBDA_RUNTIME_API: runtimeApi,
    LAMBDA_TASK_ROOT: spec.assetDir,
    LAMBDA_RUNTIME_DIR: path.dirname(host.ric),
    _HANDLER: spec.handler,
  };
  const merged: Record<string, string> = { ...base, ...env, ...instance.extra, AWS_LAMBDA_RUNTIME_API: runtimeApi };
  if (!host.confined) {
    // No private /tmp: the function's /tmp paths are moved into this instance's folder.
    for (const [name, value] of Object.entries(merged)) {
      if (value === '/tmp' || value.startsWith('/tmp/')) merged[name] = path.join(instance.tmpDir, value.slice(5));
    }
    merged.TMPDIR = instance.tmpDir;
  }
  return merged;
}

/** Starts the Runtime Interface Client on the function's asset, its output lines sent to the host's `onLog`. */
export function spawnRuntime(
  spec: FunctionSpec,
  host: HostSetup,
  instance: InstanceSetup,
  env: Record<string, string>,
): ChildProcess {
  const child = spawnConfined(spec, host, instance, env);
  forwardLines(child.stdout, (line) => host.onLog?.(instance.id, line));
  forwardLines(child.stderr, (line) => host.onLog?.(instance.id, line));
  return child;
}

function spawnConfined(
  spec: FunctionSpec,
  host: HostSetup,
  instance: InstanceSetup,
  env: Record<string, string>,
): ChildProcess {
  const command = [host.node, host.ric];
  if (!host.confined || instance.cgroups === null) {
    return spawn(command[0] as string, command.slice(1), {
      cwd: spec.assetDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
  // In a mount namespace of its own: join the cgroups, put this instance's folder over /tmp, then become Node.
  const script =
    'for f in $REHEARSE_CGROUP_PROCS; do echo $$ > "$f" || exit 97; done; ' +
    'mount --bind "$REHEARSE_TMP" /tmp || exit 98; unset REHEARSE_CGROUP_PROCS REHEARSE_TMP; exec "$@"';
  return spawn('unshare', ['--mount', '--propagation', 'private', '--', '/bin/sh', '-c', script, 'sh', ...command], {
    cwd: spec.assetDir,
    env: { ...env, REHEARSE_CGROUP_PROCS: instance.cgroups.procsFiles().join(' '), REHEARSE_TMP: instance.tmpDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Calls `onLine` with each non-empty line of `stream`. */
function forwardLines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  let rest = '';
  stream?.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString('utf8');
    const parts = text.split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts) if (line !== '') onLine(line);
  });
}
