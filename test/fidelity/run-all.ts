import type { Target } from './http-target.js';
import { installFixtures } from './fixtures.js';
import { runScenario, type ScenarioResult } from './runner.js';
import type { Scenario } from './scenario.js';

/** Scenarios in flight at once: enough to hide latency, few enough for two shared cores. */
const CONCURRENCY = 4;

/** Installs the fixtures on both servers, then runs every scenario; results in scenario order. */
export async function runAll(scenarios: Scenario[], real: Target, embedded: Target): Promise<ScenarioResult[]> {
  await Promise.all([installFixtures(real), installFixtures(embedded)]);
  const results: ScenarioResult[] = new Array(scenarios.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < scenarios.length; i = next++)
      results[i] = await runScenario(scenarios[i]!, i, real, embedded);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results;
}
