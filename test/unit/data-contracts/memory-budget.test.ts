import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ENV } from '../../../data-contracts/env';
import {
  heapOption,
  LOCAL_BUDGET_MB,
  MIN_BUDGET_MB,
  NATIVE_RESERVE_MB,
  planMemory,
} from '../../../data-contracts/memory-budget';
import { loadConfig } from '../../../lambdas/handlers/config';

const MB = 1024 * 1024;
const load = (env: Record<string, string>) => loadConfig(env, { localDir: '/tmp/pf-config-test' }).memory;

describe('the memory budget', () => {
  it('shares every budget between the native reserve, V8, DuckDB and the identity indexes, exactly', () => {
    for (const budget of [MIN_BUDGET_MB, MIN_BUDGET_MB + 3, LOCAL_BUDGET_MB, 512, 1024, 1740, 8704]) {
      const plan = planMemory(budget);
      const shares = NATIVE_RESERVE_MB + plan.heapMb + plan.duckdbMb + plan.identityResidentBytes / MB;
      expect(shares).toBe(budget);
      expect(plan.heapMb).toBeGreaterThanOrEqual(192);
      expect(plan.duckdbMb).toBeGreaterThanOrEqual(32);
    }
    expect(planMemory(512)).toEqual({ budgetMb: 512, heapMb: 205, duckdbMb: 41, identityResidentBytes: 26 * MB });
    expect(planMemory(LOCAL_BUDGET_MB)).toEqual({
      budgetMb: 480,
      heapMb: 192,
      duckdbMb: 38,
      identityResidentBytes: 10 * MB,
    });
    expect(planMemory(MIN_BUDGET_MB).identityResidentBytes).toBe(0);
    expect(heapOption(planMemory(1740))).toBe('--max-old-space-size=696');
  });

  it('refuses a budget below the reserve and the smallest V8 and DuckDB shares', () => {
    expect(() => planMemory(MIN_BUDGET_MB - 1)).toThrow(/at least 464 MB/);
  });

  it('reads PF_MEMORY_BUDGET_MB, else 85% of the Lambda memory size, else the local default', () => {
    expect(load({ [ENV.memoryBudgetMb]: ' 1024 ' }).budgetMb).toBe(1024);
    expect(load({ [ENV.memoryBudgetMb]: '1024', [ENV.lambdaMemoryMb]: '2048' }).budgetMb).toBe(1024);
    expect(load({ [ENV.lambdaMemoryMb]: '2048' }).budgetMb).toBe(1740);
    expect(load({}).budgetMb).toBe(LOCAL_BUDGET_MB);
  });

  it('fails fast naming the variable when a value is not a whole number of MB', () => {
    expect(() => load({ [ENV.memoryBudgetMb]: '1.5GB' })).toThrow(/PF_MEMORY_BUDGET_MB must be a whole number/);
    expect(() => load({ [ENV.memoryBudgetMb]: '100' })).toThrow(/PF_MEMORY_BUDGET_MB .* at least 464/);
    expect(() => load({ [ENV.lambdaMemoryMb]: 'lots' })).toThrow(/AWS_LAMBDA_FUNCTION_MEMORY_SIZE must be/);
  });

  it('is the V8 heap that npm start gives the local server, for the local default budget', () => {
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
    expect(pkg.scripts.start).toContain(heapOption(planMemory(LOCAL_BUDGET_MB)));
  });
});
