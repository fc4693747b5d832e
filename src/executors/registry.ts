// Step type → executor.

import type { Step, StepType } from '../api/index.js';
import { httpExecutor } from './http.js';
import { kubectlExecutor } from './kubectl.js';
import { pipelineExecutor } from './pipeline.js';
import { scriptExecutor } from './script.js';
import { templateExecutor } from './template.js';
import { StepError, type StepExecutor } from './types.js';

export type StepOf<T extends StepType> = Extract<Step, { type: T }>;

const executors = new Map<StepType, StepExecutor>([
  ['kubectl', kubectlExecutor as StepExecutor],
  ['script', scriptExecutor as StepExecutor],
  ['template', templateExecutor as StepExecutor],
  ['http', httpExecutor as StepExecutor],
  ['pipeline', pipelineExecutor as StepExecutor],
]);

/** Adds or replaces the executor for its type (tests). */
export function registerExecutor<T extends StepType>(executor: StepExecutor<StepOf<T>> & { type: T }): void {
  executors.set(executor.type, executor as unknown as StepExecutor);
}

/** The executor for a step type; a type nothing handles is a permanent StepError (reason UnsupportedStepType). */
export function executorFor<T extends StepType>(type: T): StepExecutor<StepOf<T>> {
  const found = executors.get(type);
  if (!found)
    throw new StepError(`no executor for step type "${type}"`, { reason: 'UnsupportedStepType', permanent: true });
  return found as unknown as StepExecutor<StepOf<T>>;
}

export function supportedStepTypes(): StepType[] {
  return [...executors.keys()];
}
