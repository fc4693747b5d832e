import type { PipelineStep } from '../api/index.js';
import { evaluate } from '../pipeline/index.js';
import { StepError, type OutputValue, type Outputs, type StepExecutor } from './types.js';

/**
 * A Δ-controller expression over the watched object (`$` is the resource). An object result's
 * fields become outputs, and the whole result is always `result`.
 */
export const pipelineExecutor: StepExecutor<PipelineStep> = {
  type: 'pipeline',
  async run(step, ctx) {
    let result: unknown;
    try {
      result = evaluate(step.expression, ctx.resource);
    } catch (e) {
      throw new StepError(`${step.name}.expression: ${(e as Error).message}`, {
        reason: 'PipelineError',
        permanent: true,
      });
    }
    const value = (result === undefined ? null : result) as OutputValue;
    const outputs: Outputs = { result: value };
    if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(outputs, value);
    return { outputs };
  },
};
