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
import { SEEDED_KINDS, hasStatus } from './served-kinds.js';

// Every served kind (and the fixture CRD's Widget) through the same verbs: create, read, list,
// watch, update, the four patch types, server-side apply with and without conflicts, delete,
// table output and the defaults a minimal object gets; then the answers a client meets when it
// is wrong or careful (errors.ts's cases, asked of every kind): a dry run, a duplicate, a missing
// object, a stale resourceVersion or uid, a mismatched or invalid name, a failed JSON-patch test,
// metadata-only reads, field selectors, paging, a watch from a resourceVersion, delete-collection
// and the status subresource. Each kind's strategy decides these answers differently
// (AllowCreateOnUpdate, AllowUnconditionalUpdate, name validation, what a status write keeps).

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
    name: `${k.label ?? k.kind}: ${verb}`,
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
    ...carefulScenarios(k, s),
  ];
}

const METADATA_ONLY = { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' };
const METADATA_ONLY_LIST = { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' };
const ORPHAN_BY_DEFAULT = new Set(['batch/v1/Job', 'v1/ReplicationController']);
const NO_SUCH_UID = '00000000-0000-0000-0000-000000000000';

function carefulScenarios(k: KindSpec, s: (verb: string, steps: Step[]) => Scenario): Scenario[] {
  const coll = collectionPath(k);
  const one = (base: string): string => `${coll}/${objectName(k, base)}`;
  const create = (base = 'o'): Step => setup(post(coll, object(k, base)));
  const mine = `labelSelector=fidelity%3D{ns}`;
  // Jobs and ReplicationControllers orphan by default, and an orphan finalizer waits for a garbage
  // collector, which the real side of the pair does not run: their collection is deleted in the background.
  const orphansByDefault = ORPHAN_BY_DEFAULT.has(`${k.apiVersion}/${k.kind}`);
  const background = orphansByDefault ? '&propagationPolicy=Background' : '';
  const readRv = (): Step => ({ ...get(one('o')), compare: 'none', capture: { rv: 'metadata.resourceVersion' } });
  const withMeta = (base: string, meta: Record<string, unknown>): Record<string, unknown> => {
    const o = object(k, base);
    return { ...o, metadata: { ...(o.metadata as Record<string, unknown>), ...meta } };
  };
  const scenarios = [
    s('create dry run', [post(`${coll}?dryRun=All`, object(k, 'o')), get(one('o'))]),
    s('create twice', [create(), post(coll, object(k, 'o'))]),
    s('get missing', [get(one('missing'))]),
    s('update with a stale resourceVersion', [create(), put(one('o'), withMeta('o', { resourceVersion: '1' }))]),
    s('update without a resourceVersion', [create(), put(one('o'), object(k, 'o', { labels: { updated: 'yes' } }))]),
    s('update of a missing object', [put(one('missing'), object(k, 'missing'))]),
    s('update with a mismatched name', [create(), put(one('o'), object(k, 'other'))]),
    s('json patch test that fails', [
      create(),
      patch(one('o'), JSON_PATCH, [{ op: 'test', path: '/metadata/labels/fidelity', value: 'no' }]),
    ]),
    s('merge patch of a missing object', [patch(one('missing'), MERGE_PATCH, { metadata: { labels: { a: 'b' } } })]),
    s('server-side apply dry run', [
      patch(`${one('o')}?fieldManager=alice&dryRun=All`, APPLY_PATCH, object(k, 'o')),
      get(one('o')),
    ]),
    s('delete with a stale uid', [create(), del(one('o'), { preconditions: { uid: NO_SUCH_UID } })]),
    s('delete missing', [del(one('missing'))]),
    s('delete dry run', [create(), del(`${one('o')}?dryRun=All`), get(one('o'))]),
    s('delete collection', [create('a'), create('b'), del(`${coll}?${mine}${background}`), get(`${coll}?${mine}`)]),
    s('metadata-only get', [create(), get(one('o'), { headers: METADATA_ONLY })]),
    s('metadata-only list', [create('a'), get(`${coll}?${mine}`, { headers: METADATA_ONLY_LIST })]),
    s('list by field selector', [
      create('a'),
      create('b'),
      get(`${coll}?fieldSelector=metadata.name%3D${objectName(k, 'b')}`),
    ]),
    s('list paged', [create('a'), create('b'), create('c'), get(`${coll}?${mine}&limit=2`)]),
    s('watch from a resourceVersion', [
      create('o'),
      readRv(),
      create('b'),
      get(`${coll}?watch=true&${mine}&resourceVersion=\${rv}`, { watchEvents: 1 }),
    ]),
    s('create with an invalid name', [post(coll, withMeta('o', { name: 'Not_Valid' }))]),
  ];
  if (!hasStatus(k)) return scenarios;
  return [
    ...scenarios,
    s('status subresource read', [create(), get(`${one('o')}/status`)]),
    s('status write of labels', [
      create(),
      patch(`${one('o')}/status`, MERGE_PATCH, { metadata: { labels: { status: 'write' } } }),
    ]),
  ];
}

export const CRUD_SCENARIOS: Scenario[] = [...KINDS, ...SEEDED_KINDS].flatMap(scenariosOf);
