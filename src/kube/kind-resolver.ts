// What kubectl's RESTMapper does for `kubectl get sts`: a word (kind, plural, singular or short
// name, optionally `.group`) to the apiVersion and kind it names, from discovery. For CLI verbs
// that take KIND/NAME; controllers address kinds by apiVersion + kind and use Discovery instead.

import type { RestClient } from './rest.js';

export interface ResolvedKind {
  apiVersion: string;
  kind: string;
  namespaced: boolean;
}

interface DiscoveredResource {
  name: string;
  singularName?: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
}

interface GroupList {
  groups: Array<{
    name: string;
    preferredVersion?: { groupVersion: string };
    versions: Array<{ groupVersion: string }>;
  }>;
}

export class UnknownResourceError extends Error {
  constructor(readonly word: string) {
    super(`the server doesn't have a resource type "${word}"`);
  }
}

async function json<T>(rest: RestClient, path: string): Promise<T | undefined> {
  const res = await rest.call('GET', path);
  return res.status === 200 ? (JSON.parse(res.body) as T) : undefined;
}

/** Preferred versions first, core first, as kubectl orders its matches. */
async function groupVersions(rest: RestClient): Promise<string[]> {
  const core = await json<{ versions: string[] }>(rest, '/api');
  const groups = await json<GroupList>(rest, '/apis');
  return [
    ...(core?.versions ?? ['v1']),
    ...(groups?.groups ?? [])
      .map((g) => g.preferredVersion?.groupVersion ?? g.versions[0]?.groupVersion ?? '')
      .filter(Boolean),
  ];
}

export async function resolveKind(rest: RestClient, word: string): Promise<ResolvedKind> {
  const dot = word.indexOf('.');
  const name = (dot >= 0 ? word.slice(0, dot) : word).toLowerCase();
  const group = dot >= 0 ? word.slice(dot + 1).toLowerCase() : undefined;
  for (const gv of await groupVersions(rest)) {
    const g = gv.includes('/') ? gv.slice(0, gv.indexOf('/')) : '';
    if (group !== undefined && g !== group) continue;
    const list = await json<{ resources: DiscoveredResource[] }>(rest, gv.includes('/') ? `/apis/${gv}` : `/api/${gv}`);
    const hit = (list?.resources ?? []).find(
      (r) =>
        !r.name.includes('/') &&
        (r.kind.toLowerCase() === name ||
          r.name === name ||
          r.singularName === name ||
          (r.shortNames ?? []).includes(name)),
    );
    if (hit) return { apiVersion: gv, kind: hit.kind, namespaced: hit.namespaced };
  }
  throw new UnknownResourceError(word);
}
