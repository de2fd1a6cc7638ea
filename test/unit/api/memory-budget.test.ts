import { ENV } from '../../../data-contracts/env';
import { loadConfig } from '../../../lambdas/handlers/config';
import { LOCAL_BUDGET_MB, MIN_BUDGET_MB, planMemory, RESERVED_MB } from '../../../lambdas/handlers/memory-budget';

const MB = 1024 * 1024;
const load = (env: Record<string, string>) => loadConfig(env, { localDir: '/tmp/pf-config-test' }).memory;

describe('the memory budget', () => {
  it('shares every budget between the reserve, DuckDB and the identity indexes without exceeding it', () => {
    for (const budget of [MIN_BUDGET_MB, 300, 384, 1024, 1740, 8704]) {
      const plan = planMemory(budget);
      expect(RESERVED_MB + plan.duckdbMb + plan.identityResidentBytes / MB).toBeLessThanOrEqual(budget);
      expect(plan.duckdbMb).toBeGreaterThanOrEqual(32);
    }
    expect(planMemory(1740).identityResidentBytes).toBe((1740 - RESERVED_MB - 174) * MB);
  });

  it('refuses a budget below the reserve and a minimal DuckDB', () => {
    expect(() => planMemory(MIN_BUDGET_MB - 1)).toThrow(/at least 288 MB/);
  });

  it('reads PF_MEMORY_BUDGET_MB, else 85% of the Lambda memory size, else the local default', () => {
    expect(load({ [ENV.memoryBudgetMb]: ' 1024 ' }).budgetMb).toBe(1024);
    expect(load({ [ENV.memoryBudgetMb]: '1024', [ENV.lambdaMemoryMb]: '2048' }).budgetMb).toBe(1024);
    expect(load({ [ENV.lambdaMemoryMb]: '2048' }).budgetMb).toBe(1740);
    expect(load({}).budgetMb).toBe(LOCAL_BUDGET_MB);
  });

  it('fails fast naming the variable when a value is not a whole number of MB', () => {
    expect(() => load({ [ENV.memoryBudgetMb]: '1.5GB' })).toThrow(/PF_MEMORY_BUDGET_MB must be a whole number/);
    expect(() => load({ [ENV.memoryBudgetMb]: '100' })).toThrow(/PF_MEMORY_BUDGET_MB .* at least 288/);
    expect(() => load({ [ENV.lambdaMemoryMb]: 'lots' })).toThrow(/AWS_LAMBDA_FUNCTION_MEMORY_SIZE must be/);
  });
});
