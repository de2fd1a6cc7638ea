/**
 * The cgroup v1 controllers an emulated Lambda instance runs under: `memory` (the function's memory size, page
 * cache charged, as Lambda charges it), `cpu` (a CFS quota at Lambda's share for that memory, never above one core
 * here) and `freezer` (frozen between invocations). Each instance gets a group of its own under
 * `/sys/fs/cgroup/<controller>/pf-rehearse/<id>`.
 *
 * Lambda allocates CPU in proportion to memory, one vCPU at 1,769 MB:
 * https://docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = '/sys/fs/cgroup';
const PARENT = 'pf-rehearse';
const CONTROLLERS = ['memory', 'cpu', 'freezer'] as const;
/** The memory size at which a function has one full vCPU. */
export const MB_PER_VCPU = 1769;
const CFS_PERIOD_US = 100_000;

/** Whether this process can make and write the three controllers' groups (root on a cgroup v1 host). */
export async function cgroupsAvailable(): Promise<{ ok: true } | { ok: false; reason: string }> {
  for (const controller of CONTROLLERS) {
    const dir = path.join(ROOT, controller);
    if (!existsSync(path.join(dir, 'cgroup.procs'))) {
      return { ok: false, reason: `no cgroup v1 ${controller} controller at ${dir}` };
    }
  }
  const probe = path.join(ROOT, 'freezer', PARENT, `probe-${process.pid}`);
  try {
    await mkdir(probe, { recursive: true });
    await rmdir(probe);
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: `cannot create cgroups (${(err as Error).message}); run as root` };
  }
}

/**
 * Removes the groups that runs which are gone left behind (a killed run): groups are named `<pid>-<instance>`, and a
 * group of a live process is left alone.
 * @returns how many were removed.
 */
export async function removeStaleGroups(): Promise<number> {
  let removed = 0;
  for (const controller of CONTROLLERS) {
    const parent = path.join(ROOT, controller, PARENT);
    const groups = await readdir(parent, { withFileTypes: true }).catch(() => []);
    for (const group of groups.filter((g) => g.isDirectory() && !isAlive(Number(g.name.split('-')[0])))) {
      const dir = path.join(parent, group.name);
      if (controller === 'freezer') await writeFile(path.join(dir, 'freezer.state'), 'THAWED').catch(() => undefined);
      if (
        await rmdir(dir).then(
          () => true,
          () => false,
        )
      )
        removed += 1;
    }
  }
  return removed;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The CPU share Lambda gives `memoryMb`, capped at `maxCores` (one here: an instance never has more). */
export function cpuShare(memoryMb: number, maxCores = 1): number {
  return Math.min(maxCores, memoryMb / MB_PER_VCPU);
}

/** One instance's groups. */
export class InstanceCgroups {
  /** `id` is the instance's; the group is named `<this process's pid>-<id>`. */
  private constructor(readonly id: string) {}

  /** Creates the groups with the memory limit and CPU quota set (not frozen). */
  static async create(id: string, memoryMb: number): Promise<InstanceCgroups> {
    const groups = new InstanceCgroups(id);
    for (const controller of CONTROLLERS) await mkdir(groups.dir(controller), { recursive: true });
    await writeFile(path.join(groups.dir('memory'), 'memory.limit_in_bytes'), String(memoryMb * 1024 * 1024));
    // No swap on Lambda: the same limit for memory + swap, where the kernel has the file.
    const memsw = path.join(groups.dir('memory'), 'memory.memsw.limit_in_bytes');
    if (existsSync(memsw)) await writeFile(memsw, String(memoryMb * 1024 * 1024));
    await writeFile(path.join(groups.dir('cpu'), 'cpu.cfs_period_us'), String(CFS_PERIOD_US));
    await writeFile(
      path.join(groups.dir('cpu'), 'cpu.cfs_quota_us'),
      String(Math.round(CFS_PERIOD_US * cpuShare(memoryMb))),
    );
    return groups;
  }

  dir(controller: (typeof CONTROLLERS)[number]): string {
    return path.join(ROOT, controller, PARENT, `${process.pid}-${this.id}`);
  }

  /** The `cgroup.procs` files a process writes its pid into to join every group (the spawn wrapper does). */
  procsFiles(): string[] {
    return CONTROLLERS.map((c) => path.join(this.dir(c), 'cgroup.procs'));
  }

  async freeze(): Promise<void> {
    await this.setFreezer('FROZEN');
  }

  async thaw(): Promise<void> {
    await this.setFreezer('THAWED');
  }

  private async setFreezer(state: 'FROZEN' | 'THAWED'): Promise<void> {
    const file = path.join(this.dir('freezer'), 'freezer.state');
    await writeFile(file, state);
    // FREEZING is transitional: wait until the kernel reports the state asked for.
    for (let i = 0; i < 200; i += 1) {
      if ((await readFile(file, 'utf8')).trim() === state) return;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    throw new Error(`instance ${this.id} did not reach ${state}`);
  }

  /** Peak memory charged to the group (process memory and page cache), and whether the OOM killer acted. */
  async memory(): Promise<{ maxBytes: number; oomKills: number }> {
    const dir = this.dir('memory');
    const maxBytes = Number((await readFile(path.join(dir, 'memory.max_usage_in_bytes'), 'utf8')).trim());
    const control = await readFile(path.join(dir, 'memory.oom_control'), 'utf8');
    const kills = /oom_kill (\d+)/.exec(control);
    return { maxBytes, oomKills: kills ? Number(kills[1]) : 0 };
  }

  /** Thaws (a frozen process cannot die) and removes the groups once the process is gone. */
  async remove(): Promise<void> {
    await this.thaw().catch(() => undefined);
    for (const controller of CONTROLLERS) {
      for (let i = 0; i < 50; i += 1) {
        try {
          await rmdir(this.dir(controller));
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') break;
          // EBUSY while the last task is still exiting.
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    }
  }
}
