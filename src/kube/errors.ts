// The closed list of the kube part's own errors that are not an API server's answer (those are
// KubeApiError, in rest.ts, with the server's status code and reason). Each is a mistake in what
// FlowOps was given to start with: the CLI's edge turns it into a usage error (exit 2).

export type KubeConfigErrorCode =
  /** The kubeconfig names no current context with a cluster. */
  | 'NoCurrentCluster'
  /** A kubeconfig file FlowOps was to change is not YAML. */
  | 'InvalidKubeconfig'
  /** Lease timings that cannot keep two leaders apart (renewDeadline ≥ leaseDuration, …). */
  | 'InvalidLeaderElection';

export class KubeConfigError extends Error {
  readonly exitCode = 2;
  constructor(
    readonly code: KubeConfigErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'KubeConfigError';
  }
}
