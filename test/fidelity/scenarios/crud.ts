import {
  APPLY_PATCH,
  AS_TABLE,
  JSON_PATCH,
  MERGE_PATCH,
  STRATEGIC_PATCH,
  del,
  get,
  patch,
  post,
  put,
  setup,
  type Scenario,
  type Step,
} from '../scenario.js';
import { KINDS, collectionPath, object, objectName, type KindSpec } from './kinds.js';

// Every served kind (and the fixture CRD's Widget) through the same verbs: create, read, list,
// watch, update, the four patch types, server-side apply with and without conflicts, delete,
// table output and the defaults a minimal object gets.

function scenariosOf(k: KindSpec): Scenario[] {
  const coll = collectionPath(k);
  const one = (base: string): string => `${coll}/${objectName(k, base)}`;
  const create = (base = 'o', more = {}): Step => setup(post(coll, object(k, base, more)));
  const selector = 'labelSelector=fidelity%3D{ns}';
  const applied = (manager: string, value: string, force = false): Step =>
    patch(
      `${one('o')}?fieldManager=${manager}${force ? '&force=true' : ''}`,
      APPLY_PATCH,
      object(k, 'o', { labels: { owner: value } }),
    );
  const s = (verb: string, steps: Step[]): Scenario => ({
    name: `${k.kind}: ${verb}`,
    steps: [...(k.prelude ?? []), ...steps],
  });
  return [
    s('create', [post(coll, object(k, 'o'))]),
    s('defaults of a minimal object', [
      setup(
        post(coll, { apiVersion: k.apiVersion, kind: k.kind, metadata: { name: objectName(k, 'o') }, ...k.minimal }),
      ),
      get(one('o')),
    ]),
    s('get', [create(), get(one('o'))]),
    s('list', [create('a'), create('b'), get(k.namespaced ? coll : `${coll}?${selector}`)]),
    s('watch', [create(), get(`${coll}?watch=true&${selector}`, { watchEvents: 1 })]),
    s('update', [
      create(),
      { ...get(one('o')), compare: 'none', capture: { rv: 'metadata.resourceVersion' } },
      put(one('o'), {
        ...object(k, 'o', { labels: { updated: 'yes' } }),
        metadata: { name: objectName(k, 'o'), resourceVersion: '${rv}', labels: { fidelity: '{ns}', updated: 'yes' } },
      }),
    ]),
    s('json patch', [
      create(),
      patch(one('o'), JSON_PATCH, [{ op: 'add', path: '/metadata/labels/patched', value: 'json' }]),
    ]),
    s('merge patch', [create(), patch(one('o'), MERGE_PATCH, { metadata: { annotations: { patched: 'merge' } } })]),
    s('strategic merge patch', [
      create(),
      patch(one('o'), STRATEGIC_PATCH, { metadata: { labels: { patched: 'strategic' } } }),
    ]),
    s('server-side apply creates', [applied('alice', 'a')]),
    s('server-side apply conflict', [setup(applied('alice', 'a')), applied('bob', 'b')]),
    s('server-side apply force', [setup(applied('alice', 'a')), applied('bob', 'b', true)]),
    s('delete', [create(), del(one('o'))]),
    s('table', [create(), get(k.namespaced ? coll : `${coll}?${selector}`, { headers: AS_TABLE })]),
  ];
}

export const CRUD_SCENARIOS: Scenario[] = KINDS.flatMap(scenariosOf);
