import type { Command } from 'commander';
import type { TenancyPolicy } from '../controller/tenancy.js';

export interface TenancyFlags {
  defaultServiceAccount?: string;
  /** commander's negatable --no-cross-namespace-refs: true unless it is given. */
  crossNamespaceRefs: boolean;
}

/** The lockdown flags (Flux's --default-service-account and --no-cross-namespace-refs) for up, run and worker. */
export function addTenancyFlags(cmd: Command): Command {
  return cmd
    .option('--default-service-account <name>', 'a Flow without serviceAccountName impersonates this ServiceAccount of its own namespace (nothing runs with FlowOps\' rights)')
    .option('--no-cross-namespace-refs', 'a Flow may only watch and write in its own namespace');
}

export function tenancyOf(flags: TenancyFlags): TenancyPolicy {
  return { crossNamespaceRefs: flags.crossNamespaceRefs, ...(flags.defaultServiceAccount ? { defaultServiceAccount: flags.defaultServiceAccount } : {}) };
}
