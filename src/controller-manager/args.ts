// The flags `flowops up` starts the real kube-controller-manager with: its defaults (every controller,
// leader election on its kube-system Lease, client-go's protobuf) plus only what running out of cluster
// beside the embedded server needs. Certificates are signed by the embedded server itself on approval
// (its csrSigner), so the csrsigning controller stays off, as it does without --cluster-signing-* files;
// kube-root-ca.crt is published with the CA of the kubeconfig, as KCM does without --root-ca-file.

export function kubeControllerManagerArgs(kubeconfig: string): string[] {
  return [
    `--kubeconfig=${kubeconfig}`,
    // No serving port of its own: its default 10257 would clash between two `up`s on one machine, and
    // without serving it needs no delegated authentication or authorization kubeconfigs.
    '--secure-port=0',
  ];
}
