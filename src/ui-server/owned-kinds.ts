// The kinds a built-in controller makes for another kind, found back through ownerReferences, so
// the tree goes on below what a Flow applied (Database → StatefulSet → its Pods), as `kubectl tree`
// and Argo CD's resource tree do.

export interface KindRef {
  apiVersion: string;
  kind: string;
}

const POD: KindRef = { apiVersion: 'v1', kind: 'Pod' };

const OWNED: ReadonlyMap<string, readonly KindRef[]> = new Map([
  ['apps/Deployment', [{ apiVersion: 'apps/v1', kind: 'ReplicaSet' }]],
  ['apps/ReplicaSet', [POD]],
  ['apps/StatefulSet', [POD]],
  ['apps/DaemonSet', [POD]],
  ['batch/Job', [POD]],
  ['batch/CronJob', [{ apiVersion: 'batch/v1', kind: 'Job' }]],
]);

const groupOf = (apiVersion: string): string =>
  apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';

export function ownedKindsOf(apiVersion: string, kind: string): readonly KindRef[] {
  return OWNED.get(`${groupOf(apiVersion)}/${kind}`) ?? [];
}
