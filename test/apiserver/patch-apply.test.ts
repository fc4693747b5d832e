import { describe, expect, it } from 'vitest';
import {
  ApplyConflictError,
  builtinListType,
  InvalidApplyError,
  ManagedFieldsError,
  normaliseManagedFields,
  schemaListType,
  serverSideApply,
  trackUpdate,
  type JsonObject,
  type ManagedFieldsEntry,
} from '../../src/apiserver/patch/apply/index.js';

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:01:00Z';
const T2 = '2026-01-01T00:02:00Z';
const T3 = '2026-01-01T00:03:00Z';
const WIDGET_API = 'example.com/v1';

const widgetSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        size: { type: 'integer' },
        color: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        hosts: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: {
            type: 'object',
            properties: {
              port: { type: 'integer' },
              protocol: { type: 'string', default: 'TCP' },
              name: { type: 'string' },
            },
          },
        },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
};
const widgetLists = schemaListType(widgetSchema);

function widget(spec: JsonObject, extra: JsonObject = {}): JsonObject {
  return { apiVersion: WIDGET_API, kind: 'Widget', metadata: { name: 'w1', namespace: 'default', ...extra }, spec };
}

function apply(live: JsonObject | undefined, applied: JsonObject, manager: string, now: string, force = false) {
  return serverSideApply({ live, applied, manager, force, apiVersion: WIDGET_API, now, listType: widgetLists });
}

/** An object as the store would hold it after a non-apply write by `manager`. */
function update(before: JsonObject | undefined, after: JsonObject, manager: string, now: string): JsonObject {
  const managedFields = trackUpdate({ before, after, manager, apiVersion: WIDGET_API, now, listType: widgetLists });
  const meta = { ...(after.metadata as JsonObject) };
  if (managedFields.length > 0) meta.managedFields = managedFields as unknown as JsonObject[];
  else delete meta.managedFields;
  return { ...after, metadata: meta };
}

const fieldsOf = (entries: readonly ManagedFieldsEntry[], manager: string) =>
  entries.find((e) => e.manager === manager)?.fieldsV1;

describe('serverSideApply on a custom resource', () => {
  it('creates the object and records the applier', () => {
    const applied = widget({ size: 3, color: 'red' }, { labels: { app: 'x' } });
    const { object, managedFields } = apply(undefined, applied, 'kubectl', T0);
    const entry: ManagedFieldsEntry = {
      manager: 'kubectl',
      operation: 'Apply',
      apiVersion: WIDGET_API,
      time: T0,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:color': {}, 'f:size': {} } },
    };
    expect(managedFields).toEqual([entry]);
    expect(object).toEqual({
      ...applied,
      metadata: { name: 'w1', namespace: 'default', labels: { app: 'x' }, managedFields: [entry] },
    });
  });

  it('removes a field the same manager applied before and omits now', () => {
    const first = apply(undefined, widget({ size: 3, color: 'red' }), 'kubectl', T0).object;
    const { object, managedFields } = apply(first, widget({ size: 3 }), 'kubectl', T1);
    expect(object.spec).toEqual({ size: 3 });
    expect(managedFields).toEqual([
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: WIDGET_API,
        time: T1,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:size': {} } },
      },
    ]);
  });

  it('keeps an omitted field another manager also owns, and only drops the ownership', () => {
    const first = apply(undefined, widget({ size: 3, color: 'red' }), 'kubectl', T0).object;
    const shared = apply(first, widget({ color: 'red' }), 'helm', T1).object;
    const { object, managedFields } = apply(shared, widget({ size: 3 }), 'kubectl', T2);
    expect(object.spec).toEqual({ size: 3, color: 'red' });
    expect(fieldsOf(managedFields, 'kubectl')).toEqual({ 'f:spec': { 'f:size': {} } });
    expect(fieldsOf(managedFields, 'helm')).toEqual({ 'f:spec': { 'f:color': {} } });
  });

  it('lets two managers apply the same value without a conflict; both own it', () => {
    const first = apply(undefined, widget({ size: 3 }), 'kubectl', T0).object;
    const { object, managedFields } = apply(first, widget({ size: 3, color: 'blue' }), 'ci', T1);
    expect(object.spec).toEqual({ size: 3, color: 'blue' });
    expect(fieldsOf(managedFields, 'kubectl')).toEqual({ 'f:spec': { 'f:size': {} } });
    expect(fieldsOf(managedFields, 'ci')).toEqual({ 'f:spec': { 'f:color': {}, 'f:size': {} } });
    expect(managedFields.map((e) => e.manager)).toEqual(['kubectl', 'ci']); // appliers sorted by time
  });

  it('reports a conflict with the Update manager that changed the field, in the real wording', () => {
    const applied = apply(undefined, widget({ size: 3 }), 'kubectl', T0).object;
    const patched = update(applied, { ...applied, spec: { size: 5 } }, 'kubectl-patch', T1);
    const afterPatch = (patched.metadata as JsonObject).managedFields as unknown as ManagedFieldsEntry[];
    expect(fieldsOf(afterPatch, 'kubectl')).toBeUndefined(); // the patch took .spec.size away from the applier

    let error: unknown;
    try {
      apply(patched, widget({ size: 4 }), 'kubectl', T2);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApplyConflictError);
    const conflict = error as ApplyConflictError;
    expect(conflict.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-patch" using example.com/v1: .spec.size',
    );
    expect(conflict.conflicts).toEqual([
      { manager: 'kubectl-patch', field: '.spec.size', message: 'conflict with "kubectl-patch" using example.com/v1' },
    ]);
  });

  it('re-applying the value the other manager set is not a conflict', () => {
    const applied = apply(undefined, widget({ size: 3 }), 'kubectl', T0).object;
    const patched = update(applied, { ...applied, spec: { size: 5 } }, 'kubectl-patch', T1);
    const { managedFields } = apply(patched, widget({ size: 5 }), 'kubectl', T2);
    expect(fieldsOf(managedFields, 'kubectl')).toEqual({ 'f:spec': { 'f:size': {} } });
    expect(fieldsOf(managedFields, 'kubectl-patch')).toEqual({ 'f:spec': { 'f:size': {} } });
  });

  it('force takes the field over; the previous owner no longer owns it', () => {
    const applied = apply(undefined, widget({ size: 3 }), 'kubectl', T0).object;
    const patched = update(applied, { ...applied, spec: { size: 5, color: 'red' } }, 'kubectl-patch', T1);
    const { object, managedFields } = apply(patched, widget({ size: 4 }), 'kubectl', T2, true);
    expect(object.spec).toEqual({ size: 4, color: 'red' });
    expect(fieldsOf(managedFields, 'kubectl')).toEqual({ 'f:spec': { 'f:size': {} } });
    expect(fieldsOf(managedFields, 'kubectl-patch')).toEqual({ 'f:spec': { 'f:color': {} } });

    // Once the only owned field is gone the manager's entry disappears.
    const again = update(object, { ...object, spec: { size: 4 } }, 'someone', T3);
    const entries = (again.metadata as JsonObject).managedFields as unknown as ManagedFieldsEntry[];
    expect(entries.map((e) => e.manager)).toEqual(['kubectl']);
  });

  it('groups several conflicts per manager in the message', () => {
    const base = apply(undefined, widget({ size: 1, color: 'red' }), 'a', T0).object;
    const byB = update(base, { ...base, spec: { size: 2, color: 'blue' } }, 'b', T1);
    const byC = apply(byB, widget({ tags: ['x'] }), 'c', T2).object;
    try {
      apply(byC, widget({ size: 9, color: 'green', tags: ['y'] }), 'a', T3);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ApplyConflictError);
      expect((e as Error).message).toBe(
        'Apply failed with 3 conflicts: conflicts with "b" using example.com/v1:\n- .spec.color\n- .spec.size\nconflicts with "c":\n- .spec.tags',
      );
    }
  });

  it('replaces atomic lists wholesale and owns them as one field', () => {
    const first = apply(undefined, widget({ tags: ['a', 'b'] }), 'kubectl', T0).object;
    const { object, managedFields } = apply(first, widget({ tags: ['c'] }), 'kubectl', T1);
    expect(object.spec).toEqual({ tags: ['c'] });
    expect(fieldsOf(managedFields, 'kubectl')).toEqual({ 'f:spec': { 'f:tags': {} } });
  });

  it('merges set lists by value and owns each value', () => {
    const first = apply(undefined, widget({ hosts: ['a.example', 'b.example'] }), 'kubectl', T0).object;
    const { object, managedFields } = apply(first, widget({ hosts: ['c.example'] }), 'other', T1);
    expect(object.spec).toEqual({ hosts: ['a.example', 'b.example', 'c.example'] });
    expect(fieldsOf(managedFields, 'other')).toEqual({ 'f:spec': { 'f:hosts': { 'v:"c.example"': {} } } });
    const dropped = apply(object, widget({}), 'kubectl', T2).object;
    expect(dropped.spec).toEqual({ hosts: ['c.example'] });
  });

  it('keys map lists with every listMapKey, using schema defaults for missing keys', () => {
    const { managedFields } = apply(undefined, widget({ ports: [{ port: 80, name: 'http' }] }), 'kubectl', T0);
    expect(fieldsOf(managedFields, 'kubectl')).toEqual({
      'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {} } } },
    });
  });

  it('ignores status on the main resource when the kind has a status subresource', () => {
    const applied = { ...widget({ size: 1 }), status: { ready: true } };
    const result = serverSideApply({
      live: undefined,
      applied,
      manager: 'kubectl',
      force: false,
      apiVersion: WIDGET_API,
      now: T0,
      listType: widgetLists,
      ignoreStatus: true,
    });
    expect(result.object.status).toBeUndefined();
    expect(fieldsOf(result.managedFields, 'kubectl')).toEqual({ 'f:spec': { 'f:size': {} } });
  });

  it('applies only status through the status subresource', () => {
    const live = apply(undefined, widget({ size: 1 }), 'kubectl', T0).object;
    const result = serverSideApply({
      live,
      applied: { ...widget({ size: 99 }), status: { ready: true } },
      manager: 'controller',
      force: false,
      apiVersion: WIDGET_API,
      now: T1,
      listType: widgetLists,
      subresource: 'status',
    });
    expect(result.object.spec).toEqual({ size: 1 });
    expect(result.object.status).toEqual({ ready: true });
    const entry = result.managedFields.find((e) => e.manager === 'controller');
    expect(entry).toMatchObject({ subresource: 'status', fieldsV1: { 'f:status': { 'f:ready': {} } } });
  });

  it('rejects configurations the real server rejects', () => {
    expect(() => apply(undefined, widget({ size: 1 }, { managedFields: [] }), 'kubectl', T0)).toThrow(
      'metadata.managedFields must be nil',
    );
    expect(() => apply(undefined, widget({ ports: [{ name: 'no-port' }] }), 'kubectl', T0)).toThrow(InvalidApplyError);
    expect(() =>
      apply(undefined, widget({ ports: [{ port: 1 }, { port: 1, protocol: 'TCP' }] }), 'kubectl', T0),
    ).toThrow(/duplicate entries/);
  });

  it('keeps the entry time when a re-apply changes nothing', () => {
    const first = apply(undefined, widget({ size: 3 }), 'kubectl', T0).object;
    const { managedFields } = apply(first, widget({ size: 3 }), 'kubectl', T1);
    expect(managedFields[0]!.time).toBe(T0);
  });
});

describe('serverSideApply: switching from client-side apply (manager "kubectl")', () => {
  const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
  const csaCreated = (): JsonObject => {
    const config = widget({ size: 1 });
    const created = widget({ size: 1 }, { annotations: { [LAST_APPLIED]: JSON.stringify(config) } });
    return update(undefined, created, 'kubectl-client-side-apply', T0);
  };

  it('lets kubectl take over fields listed in the last-applied annotation and keeps the annotation in sync', () => {
    const { object, managedFields } = apply(csaCreated(), widget({ size: 2 }), 'kubectl', T1);
    expect(object.spec).toEqual({ size: 2 });
    expect(fieldsOf(managedFields, 'kubectl')).toEqual({ 'f:spec': { 'f:size': {} } });
    expect(fieldsOf(managedFields, 'kubectl-client-side-apply')).toEqual({
      'f:metadata': { 'f:annotations': { '.': {}, [`f:${LAST_APPLIED}`]: {} } },
      'f:spec': {},
    });
    const synced = ((object.metadata as JsonObject).annotations as JsonObject)[LAST_APPLIED];
    expect(synced).toBe(
      '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","namespace":"default"},"spec":{"size":2}}\n',
    );

    // kubectl's next step applies the same annotation as manager kubectl-last-applied: no conflict.
    const annotationOnly = widget({}, { annotations: { [LAST_APPLIED]: synced as string } });
    delete annotationOnly.spec;
    expect(() => apply(object, annotationOnly, 'kubectl-last-applied', T2)).not.toThrow();
  });

  it('still reports the conflict to any other manager', () => {
    expect(() => apply(csaCreated(), widget({ size: 2 }), 'helm', T1)).toThrow(ApplyConflictError);
  });
});

describe('serverSideApply on a Deployment (built-in merge keys)', () => {
  const lists = builtinListType({ group: 'apps', version: 'v1', kind: 'Deployment' });
  const deployment = (containers: JsonObject[], replicas?: number): JsonObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      ...(replicas === undefined ? {} : { replicas }),
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers } },
    },
  });
  const run = (live: JsonObject | undefined, applied: JsonObject, manager: string, now: string, force = false) =>
    serverSideApply({ live, applied, manager, force, apiVersion: 'apps/v1', now, listType: lists });

  it('owns containers per element with k:{"name":…} keys and merges other managers\' containers', () => {
    const first = run(
      undefined,
      deployment([{ name: 'nginx', image: 'nginx:1.25', args: ['-g', 'daemon off;'] }], 2),
      'kubectl',
      T0,
    );
    expect(fieldsOf(first.managedFields, 'kubectl')).toEqual({
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:args': {}, 'f:image': {}, 'f:name': {} } },
          },
        },
      },
    });

    const sidecar = run(first.object, deployment([{ name: 'sidecar', image: 'busybox' }]), 'mesh', T1);
    const containers = (sidecar.object as any).spec.template.spec.containers;
    expect(containers).toEqual([
      { name: 'nginx', image: 'nginx:1.25', args: ['-g', 'daemon off;'] },
      { name: 'sidecar', image: 'busybox' },
    ]);
    expect(fieldsOf(sidecar.managedFields, 'mesh')).toMatchObject({
      'f:spec': {
        'f:template': {
          'f:spec': { 'f:containers': { 'k:{"name":"sidecar"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
        },
      },
    });

    // kubectl re-applies without the args: they go, the sidecar (owned by mesh) stays.
    const next = run(sidecar.object, deployment([{ name: 'nginx', image: 'nginx:1.26' }], 2), 'kubectl', T2);
    expect((next.object as any).spec.template.spec.containers).toEqual([
      { name: 'nginx', image: 'nginx:1.26' },
      { name: 'sidecar', image: 'busybox' },
    ]);
  });

  it("removes a whole container the applier dropped, and conflicts on another manager's image", () => {
    const first = run(
      undefined,
      deployment([
        { name: 'a', image: 'a:1' },
        { name: 'b', image: 'b:1' },
      ]),
      'kubectl',
      T0,
    );
    const dropped = run(first.object, deployment([{ name: 'a', image: 'a:1' }]), 'kubectl', T1);
    expect((dropped.object as any).spec.template.spec.containers).toEqual([{ name: 'a', image: 'a:1' }]);

    const other = run(dropped.object, deployment([{ name: 'a', image: 'a:2' }]), 'ci', T2, true);
    try {
      run(other.object, deployment([{ name: 'a', image: 'a:3' }]), 'kubectl', T3);
      expect.unreachable();
    } catch (e) {
      expect((e as ApplyConflictError).message).toBe(
        'Apply failed with 1 conflict: conflict with "ci": .spec.template.spec.containers[name="a"].image',
      );
    }
  });
});

describe('trackUpdate', () => {
  it('gives a creating manager every field it set, with "." for the objects it created', () => {
    const created = widget({ size: 1 }, { labels: { app: 'x' } });
    const entries = trackUpdate({
      before: undefined,
      after: created,
      manager: 'kubectl-create',
      apiVersion: WIDGET_API,
      now: T0,
      listType: widgetLists,
    });
    expect(entries).toEqual([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: WIDGET_API,
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { '.': {}, 'f:size': {} } },
      },
    ]);
  });

  it('transfers changed fields from other managers and drops removed ones', () => {
    const created = update(undefined, widget({ size: 1, color: 'red' }), 'kubectl-create', T0);
    const edited = update(created, { ...created, spec: { size: 2 } }, 'kubectl-edit', T1);
    const entries = (edited.metadata as JsonObject).managedFields as unknown as ManagedFieldsEntry[];
    // It created `spec`, so it keeps owning the object itself (a member without children is `{}`).
    expect(fieldsOf(entries, 'kubectl-create')).toEqual({ 'f:spec': {} });
    expect(fieldsOf(entries, 'kubectl-edit')).toEqual({ 'f:spec': { 'f:size': {} } });
  });

  it('merges repeated updates by the same manager into one entry and leaves a no-op alone', () => {
    const a = update(undefined, widget({ size: 1 }), 'm', T0);
    const b = update(a, { ...a, spec: { size: 1, color: 'red' } }, 'm', T1);
    const entries = (b.metadata as JsonObject).managedFields as unknown as ManagedFieldsEntry[];
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ time: T1, fieldsV1: { 'f:spec': { '.': {}, 'f:size': {}, 'f:color': {} } } });
    const same = trackUpdate({
      before: b,
      after: b,
      manager: 'other',
      apiVersion: WIDGET_API,
      now: T2,
      listType: widgetLists,
    });
    expect(same).toEqual(entries);
  });

  it("starts from managedFields the request carries (kubectl's CSA → SSA upgrade)", () => {
    const stored = update(undefined, widget({ size: 1 }), 'kubectl-client-side-apply', T0);
    const upgraded: ManagedFieldsEntry[] = [
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: WIDGET_API,
        time: T1,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:size': {} } },
      },
    ];
    const after = {
      ...stored,
      metadata: { ...(stored.metadata as JsonObject), managedFields: upgraded as unknown as JsonObject[] },
    };
    expect(
      trackUpdate({
        before: stored,
        after,
        manager: 'kubectl',
        apiVersion: WIDGET_API,
        now: T2,
        listType: widgetLists,
      }),
    ).toEqual(upgraded);
    const reset = { ...stored, metadata: { ...(stored.metadata as JsonObject), managedFields: [{}] } };
    expect(
      trackUpdate({
        before: stored,
        after: reset,
        manager: 'kubectl',
        apiVersion: WIDGET_API,
        now: T2,
        listType: widgetLists,
      }),
    ).toEqual([]);
  });
});

describe('list type resolvers', () => {
  it('reads built-in merge keys from the shared table', () => {
    const pods = builtinListType({ group: '', version: 'v1', kind: 'Pod' });
    expect(pods(['spec', 'containers'])).toEqual({ mapKeys: ['name'] });
    expect(pods(['spec', 'containers', 'ports'])).toEqual({
      mapKeys: ['containerPort', 'protocol'],
      keyDefaults: { protocol: 'TCP' },
    });
    expect(pods(['spec', 'tolerations'])).toBe('atomic');
    expect(pods(['spec', 'containers', 'args'])).toBe('atomic');
    expect(pods(['metadata', 'finalizers'])).toBe('set');
    expect(pods(['metadata', 'ownerReferences'])).toEqual({ mapKeys: ['uid'] });
  });

  it('reads x-kubernetes-* markers from a CRD schema, through lists and additionalProperties', () => {
    const lists = schemaListType({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            groups: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name'],
              items: {
                type: 'object',
                properties: { members: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } },
              },
            },
            byZone: { type: 'object', additionalProperties: { type: 'array', 'x-kubernetes-list-type': 'set' } },
            selector: { type: 'object', 'x-kubernetes-map-type': 'atomic' },
          },
        },
      },
    });
    expect(lists(['spec', 'groups'])).toEqual({ mapKeys: ['name'] });
    expect(lists(['spec', 'groups', 'members'])).toBe('set');
    expect(lists(['spec', 'byZone', 'eu-west'])).toBe('set');
    expect(lists(['spec', 'unknown'])).toBe('atomic');
    expect(lists(['metadata', 'finalizers'])).toBe('set');
    expect(lists.mapType?.(['spec', 'selector'])).toBe('atomic');
    expect(lists.mapType?.(['spec'])).toBe('granular');
  });
});

describe('normaliseManagedFields', () => {
  const entry = (
    manager: string,
    operation: 'Apply' | 'Update',
    time: string,
    fieldsV1: object,
  ): ManagedFieldsEntry => ({
    manager,
    operation,
    apiVersion: WIDGET_API,
    time,
    fieldsType: 'FieldsV1',
    fieldsV1,
  });

  it('sorts, merges same-identity entries and drops empty ones', () => {
    const result = normaliseManagedFields([
      entry('z', 'Update', T0, { 'f:spec': { 'f:a': {} } }),
      entry('m', 'Apply', T1, { 'f:spec': { 'f:b': {} } }),
      entry('z', 'Update', T1, { 'f:spec': { 'f:c': {} } }),
      entry('empty', 'Update', T0, {}),
    ]);
    expect(result).toEqual([
      entry('m', 'Apply', T1, { 'f:spec': { 'f:b': {} } }),
      entry('z', 'Update', T1, { 'f:spec': { 'f:a': {}, 'f:c': {} } }),
    ]);
  });

  it('treats a list of empty entries as a reset', () => {
    expect(normaliseManagedFields([{}])).toEqual([]);
  });

  it('throws on anything that is not managedFields', () => {
    expect(() => normaliseManagedFields({})).toThrow(ManagedFieldsError);
    expect(() =>
      normaliseManagedFields([
        { manager: 'm', operation: 'Patch', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1' },
      ]),
    ).toThrow(/operation/);
    expect(() => normaliseManagedFields([entry('m', 'Apply', T0, { 'x:spec': {} })])).toThrow(/invalid fieldsV1 key/);
    expect(() => normaliseManagedFields([entry('m', 'Apply', T0, { 'f:spec': { '.': { 'f:a': {} } } })])).toThrow(
      ManagedFieldsError,
    );
  });
});
