import type { KubeClient } from '../kube/index.js';
import { isViewGroup, viewGroup, VIEW_VERSION, type ResolvedResource, type ResourceSpec } from './types.js';
import { OperatorError } from './errors.js';

/**
 * Decides a source's or target's group and version (spec §1.3): a missing apiGroup is a view of
 * this operator, "" is the core group, and a missing version is the group's preferred one (views
 * are always v1alpha1).
 */
export async function resolveResource(
  kube: KubeClient | undefined,
  operator: string,
  r: ResourceSpec,
): Promise<ResolvedResource> {
  if (r.apiGroup === undefined || r.apiGroup === null) {
    const group = viewGroup(operator);
    return { apiVersion: `${group}/${VIEW_VERSION}`, group, kind: r.kind, isView: true };
  }
  const group = r.apiGroup;
  if (isViewGroup(group))
    return { apiVersion: `${group}/${r.version ?? VIEW_VERSION}`, group, kind: r.kind, isView: true };
  if (group === '') return { apiVersion: r.version ?? 'v1', group, kind: r.kind, isView: false };
  const version = r.version ?? (kube ? await preferredVersion(kube, group) : undefined);
  if (!version)
    throw new OperatorError('UnresolvedResource', `cannot resolve the version of group ${group} for kind ${r.kind}`);
  return { apiVersion: `${group}/${version}`, group, kind: r.kind, isView: false };
}

async function preferredVersion(kube: KubeClient, group: string): Promise<string> {
  const res = await kube.rest.call('GET', `/apis/${group}`);
  if (res.status >= 400)
    throw new OperatorError('UnresolvedResource', `API group ${group} is not served (HTTP ${res.status})`);
  const doc = JSON.parse(res.body) as {
    preferredVersion?: { version?: string };
    versions?: Array<{ version: string }>;
  };
  const v = doc.preferredVersion?.version ?? doc.versions?.[0]?.version;
  if (!v) throw new OperatorError('UnresolvedResource', `API group ${group} serves no version`);
  return v;
}
