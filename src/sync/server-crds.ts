// The server's CustomResourceDefinitions, for a commit's type check: the kinds a commit's Flows
// watch or apply whose CRD the commit does not carry (an incremental sync reads only the files it
// touched; a CRD may also come from Helm or another source). Read with FlowOps' own client, not a
// source's ServiceAccount: reading schemas is not applying. A failed list leaves the check to the
// commit's own CRDs and the built-in kinds, as before (a kind of unknown schema claims nothing).
import type { KubeClient } from '../kube/index.js';

export async function listServerCrds(kube: KubeClient): Promise<unknown[]> {
  try {
    return (await kube.list('apiextensions.k8s.io/v1', 'CustomResourceDefinition')).items;
  } catch {
    return [];
  }
}
