/**
 * Where the embedded server's discovery still differs from kube-apiserver 1.34.4's, each with its reason.
 * Keys are discovery-diff.ts's: `group:NAME` or `groupVersion/resource[/subresource]`.
 */
export const KNOWN_DISCOVERY_DIFFERENCES: ReadonlyArray<{ key: string; reason: string }> = [
  ...['v1/pods/proxy', 'v1/services/proxy', 'v1/nodes/proxy'].map((key) => ({
    key,
    reason: 'no pod, service or node runs behind the embedded server for a proxy to reach',
  })),
  { key: 'v1/pods/ephemeralcontainers', reason: 'not served yet: no kubelet runs an ephemeral container here' },
  { key: 'v1/pods/resize', reason: 'not served yet: in-place resize needs a kubelet to act on it' },
];
