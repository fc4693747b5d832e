import { InvalidArgumentError, type Command } from 'commander';
import { DEFAULT_POD_START_MS } from '../simulator/defaults.js';

export interface SimulateFlags {
  /** commander's negatable `--no-simulate`: true unless it is given. */
  simulate: boolean;
  podReadyDelay: number;
}

/** `up` only: `flowops apiserver` stays a bare API server, and `run` has a real cluster's controllers. */
export function addSimulateFlags(cmd: Command): Command {
  return cmd
    .option(
      '--no-simulate',
      'do not simulate workloads (by default Deployments, StatefulSets and Jobs get pods that report Running/Ready; no container runs)',
    )
    .option(
      '--pod-ready-delay <ms>',
      'with the simulator: how long a pod takes to become Running and Ready',
      wholeMilliseconds,
      DEFAULT_POD_START_MS,
    );
}

function wholeMilliseconds(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError('want a whole number of milliseconds');
  return n;
}
