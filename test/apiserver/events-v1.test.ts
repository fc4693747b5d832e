import * as k8s from '@kubernetes/client-node';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';

let ts: TestServer;
let kc: k8s.KubeConfig;
let core: k8s.CoreV1Api;
let events: k8s.EventsV1Api;
let kubectl: Kubectl;

beforeAll(async () => {
  ts = await startTestServer();
  kc = new k8s.KubeConfig();
  kc.loadFromFile(ts.kubeconfig);
  core = kc.makeApiClient(k8s.CoreV1Api);
  events = kc.makeApiClient(k8s.EventsV1Api);
  kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-events-')));
  await core.createNamespace({ body: { metadata: { name: 'ev' } } });
});
afterAll(async () => ts?.stop());

const regarding = { apiVersion: 'v1', kind: 'Pod', name: 'web-0', namespace: 'ev', uid: 'u-1' };
const newStyle = (name: string): k8s.EventsV1Event => ({
  metadata: { name, namespace: 'ev' },
  // A string: client-node would send a Date as milliseconds, which kube-apiserver refuses for a MicroTime.
  eventTime: '2026-01-02T03:04:05.123456Z' as unknown as k8s.V1MicroTime,
  reportingController: 'example.com/scheduler',
  reportingInstance: 'scheduler-1',
  action: 'Binding',
  reason: 'Scheduled',
  type: 'Normal',
  regarding,
  note: 'Successfully assigned ev/web-0',
});

describe('events.k8s.io/v1 Events share storage with core/v1 Events', () => {
  it('an Event created through events.k8s.io reads through core/v1 with the fields kube-apiserver maps', async () => {
    await events.createNamespacedEvent({ namespace: 'ev', body: newStyle('scheduled') });
    const asCore = await core.readNamespacedEvent({ namespace: 'ev', name: 'scheduled' });
    expect(asCore.message).toBe('Successfully assigned ev/web-0');
    expect(asCore.involvedObject).toEqual(expect.objectContaining({ kind: 'Pod', name: 'web-0', namespace: 'ev' }));
    expect(asCore.reportingComponent).toBe('example.com/scheduler');
    expect(asCore.reportingInstance).toBe('scheduler-1');
    expect(asCore.action).toBe('Binding');
    const raw = (await (await fetch(`${ts.server.url}/api/v1/namespaces/ev/events/scheduled`)).json()) as Record<
      string,
      unknown
    >;
    expect(raw.apiVersion).toBe('v1');
    expect(raw).not.toHaveProperty('note');
    expect(raw.firstTimestamp).toBeNull(); // Go writes an unset metav1.Time as null
  });

  it('a core/v1 Event reads through events.k8s.io (note, regarding, deprecated count and timestamps)', async () => {
    await core.createNamespacedEvent({
      namespace: 'ev',
      body: {
        metadata: { name: 'pulled' },
        involvedObject: regarding,
        reason: 'Pulled',
        message: 'Container image pulled',
        type: 'Normal',
        count: 3,
        firstTimestamp: new Date('2026-01-01T00:00:00Z'),
        lastTimestamp: new Date('2026-01-01T00:05:00Z'),
        source: { component: 'kubelet', host: 'node-1' },
      },
    });
    const ev = await events.readNamespacedEvent({ namespace: 'ev', name: 'pulled' });
    expect(ev.note).toBe('Container image pulled');
    expect(ev.regarding).toEqual(expect.objectContaining({ kind: 'Pod', name: 'web-0' }));
    expect(ev.deprecatedCount).toBe(3);
    expect(ev.deprecatedSource).toEqual({ component: 'kubelet', host: 'node-1' });
    expect(new Date(ev.deprecatedFirstTimestamp as unknown as string).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    const raw = (await (
      await fetch(`${ts.server.url}/apis/events.k8s.io/v1/namespaces/ev/events/pulled`)
    ).json()) as Record<string, unknown>;
    expect(raw.apiVersion).toBe('events.k8s.io/v1');
    expect(raw.eventTime).toBeNull();
    expect(raw).not.toHaveProperty('message');
    const list = await events.listNamespacedEvent({ namespace: 'ev' });
    expect(list.items.map((e) => e.metadata!.name).sort()).toEqual(['pulled', 'scheduled']);
    // Field selectors by events.k8s.io's names (mapped onto the core fields, as kube-apiserver maps them).
    const byReason = await events.listNamespacedEvent({
      namespace: 'ev',
      fieldSelector: 'reason=Pulled,regarding.name=web-0',
    });
    expect(byReason.items.map((e) => e.metadata!.name)).toEqual(['pulled']);
    const byController = await events.listNamespacedEvent({
      namespace: 'ev',
      fieldSelector: 'reportingController=example.com/scheduler',
    });
    expect(byController.items.map((e) => e.metadata!.name)).toEqual(['scheduled']);
    const coreName = await fetch(
      `${ts.server.url}/apis/events.k8s.io/v1/namespaces/ev/events?fieldSelector=involvedObject.name%3Dweb-0`,
    );
    expect(coreName.status).toBe(400);
    expect(((await coreName.json()) as { message: string }).message).toBe(
      'field label not supported: involvedObject.name',
    );
  });

  it('watches through events.k8s.io see core writes, converted; a delete through one API removes it from both', async () => {
    const seen: Array<{ type: string; note?: string | undefined }> = [];
    const watch = new k8s.Watch(kc);
    const req = await watch.watch(
      '/apis/events.k8s.io/v1/namespaces/ev/events',
      { resourceVersion: (await events.listNamespacedEvent({ namespace: 'ev' })).metadata!.resourceVersion! },
      (type, obj: k8s.EventsV1Event) => seen.push({ type, note: obj.note }),
      () => undefined,
    );
    try {
      await core.createNamespacedEvent({
        namespace: 'ev',
        body: {
          metadata: { name: 'killed' },
          involvedObject: regarding,
          reason: 'Killing',
          message: 'Stopping container',
          type: 'Normal',
        },
      });
      await waitFor(() => seen.some((s) => s.type === 'ADDED' && s.note === 'Stopping container'), {
        what: 'ADDED through events.k8s.io',
        timeoutMs: 30_000,
      });
      await events.deleteNamespacedEvent({ namespace: 'ev', name: 'killed' });
      await waitFor(() => seen.some((s) => s.type === 'DELETED'), { what: 'DELETED', timeoutMs: 30_000 });
      expect((await fetch(`${ts.server.url}/api/v1/namespaces/ev/events/killed`)).status).toBe(404);
    } finally {
      req.abort();
    }
  });

  it('refuses an events.k8s.io Event without what the new API requires, naming the fields', async () => {
    const res = await fetch(`${ts.server.url}/apis/events.k8s.io/v1/namespaces/ev/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'bare' },
        regarding,
        type: 'Sometimes',
        deprecatedCount: 2,
      }),
    });
    expect(res.status).toBe(422);
    const status = (await res.json()) as { details: { causes: Array<{ field: string }> } };
    expect(status.details.causes.map((c) => c.field)).toEqual(['eventTime', 'type', 'count']);
    const millis = await fetch(`${ts.server.url}/api/v1/namespaces/ev/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'millis' },
        involvedObject: regarding,
        eventTime: '2026-01-02T03:04:05.123Z',
      }),
    });
    expect(millis.status).toBe(400);
    // MicroTime's UnmarshalJSON refuses anything but six fractional digits, in Go's words, before any validation.
    expect(((await millis.json()) as { message: string }).message).toContain(
      'Event in version "v1" cannot be handled as a Event: parsing time "2026-01-02T03:04:05.123Z" as "2006-01-02T15:04:05.000000Z07:00"',
    );
  });

  it('an events.k8s.io update keeps what ValidateEventUpdate fixes; a core/v1 Event name is a path segment', async () => {
    const path = `${ts.server.url}/apis/events.k8s.io/v1/namespaces/ev/events`;
    const json = { 'Content-Type': 'application/json' };
    const made = await fetch(path, { method: 'POST', headers: json, body: JSON.stringify(newStyle('fixed')) });
    expect(made.status).toBe(201);
    const stored = (await made.json()) as Record<string, unknown>;
    const changed = { ...stored, note: 'other', series: { count: 1 }, related: { kind: 'Node', name: 'n' } };
    const res = await fetch(`${path}/fixed`, { method: 'PUT', headers: json, body: JSON.stringify(changed) });
    expect(res.status).toBe(422);
    const status = (await res.json()) as { details: { causes: Array<{ field: string; message: string }> } };
    expect(status.details.causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'series.count: Invalid value: "": should be at least 2',
      'series.lastObservedTime: Required value',
      'message: Invalid value: "other": field is immutable',
      expect.stringMatching(/^related: Invalid value: .*: field is immutable$/),
    ]);
    const legacy = await fetch(`${ts.server.url}/api/v1/namespaces/ev/events`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'Not_A_DNS.Name' },
        involvedObject: regarding,
      }),
    });
    expect(legacy.status).toBe(201);
  });

  it('kubectl events lists both, --for filters by the regarding object, and get events.events.k8s.io prints them', async () => {
    const all = await kubectl.ok(['events', '-n', 'ev']);
    expect(all).toMatch(/Scheduled\s+Pod\/web-0\s+Successfully assigned ev\/web-0/);
    expect(all).toMatch(/Pulled\s+Pod\/web-0\s+Container image pulled/);
    await core.createNamespacedEvent({
      namespace: 'ev',
      body: {
        metadata: { name: 'other' },
        involvedObject: { ...regarding, name: 'db-0', uid: 'u-2' },
        reason: 'Started',
        message: 'Started db',
        type: 'Normal',
      },
    });
    const forWeb = await kubectl.ok(['events', '-n', 'ev', '--for', 'pod/web-0']);
    expect(forWeb).toContain('Successfully assigned');
    expect(forWeb).not.toContain('Started db');
    const table = await kubectl.ok(['get', 'events.events.k8s.io', '-n', 'ev']);
    // kube-apiserver's Event columns: the name is a wide column, last (builtin-column-definitions.json).
    expect(table).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE\n/); // as for core Events here
    expect(table).toMatch(/Normal\s+Scheduled\s+pod\/web-0\s+Successfully assigned ev\/web-0/);
    expect(await kubectl.ok(['explain', 'events.note', '--api-version=events.k8s.io/v1'])).toContain(
      'FIELD: note <string>',
    );
  });
});
