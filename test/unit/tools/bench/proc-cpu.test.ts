import { parseProcStatCpuMs, readProcessCpuMs } from '../../../../tools/bench/abuse/proc-cpu';

// Fields 3 to 17 of a real line, with utime 150 and stime 25 ticks.
const TAIL = 'S 1 42 42 0 -1 4194304 10 0 0 0 150 25 0 0 20 0 11 0 9 1 1';

describe('parseProcStatCpuMs', () => {
  it('adds utime and stime and converts ticks to milliseconds', () => {
    expect(parseProcStatCpuMs(`42 (node) ${TAIL}\n`)).toBe(1750);
  });

  it('counts fields from the last parenthesis, whatever the command name holds', () => {
    expect(parseProcStatCpuMs(`42 (a) b (c) 1 2) ${TAIL}`)).toBe(1750);
  });

  it('refuses a line without a command name or without the time fields', () => {
    expect(() => parseProcStatCpuMs('42 node S 1')).toThrow(/no command name/);
    expect(() => parseProcStatCpuMs('42 (node) S 1 42')).toThrow(/no utime and stime/);
  });
});

describe('readProcessCpuMs', () => {
  it('reads a running process: this one, whose CPU time only grows', async () => {
    const before = await readProcessCpuMs(process.pid);
    let x = 0;
    for (let i = 0; i < 1e6; i += 1) x += i;
    expect(x).toBeGreaterThan(0);
    expect(await readProcessCpuMs(process.pid)).toBeGreaterThanOrEqual(before);
  });
});
