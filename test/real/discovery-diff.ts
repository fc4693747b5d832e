import { send, type Target } from '../fidelity/http-target.js';

/** One served resource as legacy discovery (/api/v1, /apis/{group}/{version}) lists it. */
interface DiscoveredResource {
  name: string;
  namespaced: boolean;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  group?: string;
  version?: string;
}

/** `groupVersion/resource` → the facts compared, as one line of text per resource. */
export type DiscoveryFacts = Map<string, string>;

async function getJson(target: Target, path: string): Promise<unknown> {
  const a = await send(target, { method: 'GET', path, headers: { Accept: 'application/json' }, timeoutMs: 10_000 });
  if (a.status !== 200) throw new Error(`${target.name} GET ${path}: ${a.status} ${a.body.slice(0, 200)}`);
  return JSON.parse(a.body) as unknown;
}

const sorted = (xs: string[] | undefined): string => [...(xs ?? [])].sort().join(',');

function factsOf(r: DiscoveredResource): string {
  const parts = [`namespaced=${r.namespaced}`, `kind=${r.kind}`, `verbs=${sorted(r.verbs)}`];
  if (r.shortNames?.length) parts.push(`shortNames=${sorted(r.shortNames)}`);
  if (r.categories?.length) parts.push(`categories=${sorted(r.categories)}`);
  if (r.group !== undefined || r.version !== undefined) parts.push(`gv=${r.group ?? ''}/${r.version ?? ''}`);
  return parts.join(' ');
}

/**
 * What a server's discovery says: every group with its versions (preferred first) under the key
 * `group:NAME`, and every resource and subresource of every served group-version.
 */
export async function discoveryFacts(target: Target): Promise<DiscoveryFacts> {
  const facts: DiscoveryFacts = new Map();
  const groups = (await getJson(target, '/apis')) as {
    groups: Array<{
      name: string;
      versions: Array<{ groupVersion: string }>;
      preferredVersion: { groupVersion: string };
    }>;
  };
  const groupVersions = ['v1'];
  for (const g of groups.groups) {
    const versions = g.versions.map((v) => v.groupVersion);
    facts.set(`group:${g.name}`, `versions=${versions.join(',')} preferred=${g.preferredVersion.groupVersion}`);
    groupVersions.push(...versions);
  }
  for (const gv of groupVersions) {
    const path = gv === 'v1' ? '/api/v1' : `/apis/${gv}`;
    const list = (await getJson(target, path)) as { resources: DiscoveredResource[] };
    for (const r of list.resources) facts.set(`${gv}/${r.name}`, factsOf(r));
  }
  return facts;
}

export interface DiscoveryDifference {
  key: string;
  real: string | undefined;
  embedded: string | undefined;
}

export function compareDiscovery(real: DiscoveryFacts, embedded: DiscoveryFacts): DiscoveryDifference[] {
  const keys = [...new Set([...real.keys(), ...embedded.keys()])].sort();
  return keys
    .filter((k) => real.get(k) !== embedded.get(k))
    .map((key) => ({ key, real: real.get(key), embedded: embedded.get(key) }));
}
