// How far a Flow may reach (issue: multi-tenancy). FlowOps' flags set it for the whole process:
// `--default-service-account NAME` (a Flow without serviceAccountName impersonates NAME in its own
// namespace) and `--no-cross-namespace-refs` (a Flow watches and writes only in its own namespace).

export interface TenancyPolicy {
  defaultServiceAccount?: string;
  /** False: a Flow may only watch and write in its own namespace (cluster-scoped objects are refused too). */
  crossNamespaceRefs: boolean;
}

export const OPEN_TENANCY: TenancyPolicy = { crossNamespaceRefs: true };

/** Why a Flow's watch breaks the policy, or undefined. */
export function watchProblem(
  policy: TenancyPolicy,
  flowNamespace: string,
  watchNamespace: string | undefined,
): string | undefined {
  if (policy.crossNamespaceRefs || !watchNamespace || watchNamespace === flowNamespace) return undefined;
  return `spec.watch.namespace: "${watchNamespace}" is another namespace; this FlowOps runs with --no-cross-namespace-refs, so a Flow watches only its own namespace (${flowNamespace})`;
}
