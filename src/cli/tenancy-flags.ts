import { InvalidArgumentError, Option, type Command } from 'commander';
import { quantityNanos } from '../apiserver/defaults/quantity.js';
import type { TenancyPolicy } from '../controller/index.js';
import { DEFAULT_SCRIPT_MEMORY_LIMIT, scriptSandbox } from '../executors/script-sandbox.js';

export interface TenancyFlags {
  defaultServiceAccount?: string;
  /** commander's negatable --no-cross-namespace-refs: true unless it is given. */
  crossNamespaceRefs: boolean;
  scriptMemoryLimit: number;
  scriptIsolation: 'auto' | 'none';
}

/** The lockdown flags (Flux's --default-service-account and --no-cross-namespace-refs) for up, run and worker. */
export function addTenancyFlags(cmd: Command): Command {
  return cmd
    .option(
      '--default-service-account <name>',
      "a Flow without serviceAccountName impersonates this ServiceAccount of its own namespace (nothing runs with FlowOps' rights)",
    )
    .option('--no-cross-namespace-refs', 'a Flow may only watch and write in its own namespace')
    .addOption(
      new Option(
        '--script-isolation <mode>',
        'auto: script steps run in their own mount and PID namespaces (and as nobody under root) where the machine allows; none: only rlimits and a process group',
      )
        .choices(['auto', 'none'])
        .default('auto'),
    )
    .option(
      '--script-memory-limit <quantity>',
      'address space a script step and what it starts may use (a Kubernetes quantity: 512Mi, 2Gi)',
      memoryQuantity,
      DEFAULT_SCRIPT_MEMORY_LIMIT,
    );
}

function memoryQuantity(text: string): number {
  const nanos = quantityNanos(text);
  if (nanos === undefined || nanos < 64n * 1024n * 1024n * 1_000_000_000n)
    throw new InvalidArgumentError(`expected a quantity of at least 64Mi (e.g. 512Mi, 2Gi), got "${text}"`);
  return Number(nanos / 1_000_000_000n);
}

/**
 * Script steps run beside this process: its data folder and kubeconfig are covered in their mount
 * namespace (script-sandbox.ts), and their memory is bounded as the flag says.
 */
export function isolateScripts(flags: TenancyFlags, ownPaths: Array<string | undefined>): void {
  scriptSandbox.configure({ memoryLimitBytes: flags.scriptMemoryLimit, isolate: flags.scriptIsolation !== 'none' });
  for (const path of ownPaths) if (path) scriptSandbox.hide(path);
}

export function tenancyOf(flags: TenancyFlags): TenancyPolicy {
  return {
    crossNamespaceRefs: flags.crossNamespaceRefs,
    ...(flags.defaultServiceAccount ? { defaultServiceAccount: flags.defaultServiceAccount } : {}),
  };
}
