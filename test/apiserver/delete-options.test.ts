import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { bool, envelope, msg, str } from './helpers/pb-encoder.js';

/** DeleteOptions on DELETE and DELETE-collection: from a JSON or protobuf body, or from the query. */
let ts: TestServer;
const NS = 'del';
const base = () => `${ts.server.url}/api/v1/namespaces/${NS}/configmaps`;
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

beforeAll(async () => {
  ts = await startTestServer();
  const nsType = ts.server.registry.lookup('', 'v1', 'namespaces')!;
  ts.server.objects.create(nsType, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
});
afterAll(async () => ts?.stop());

async function create(name: string, labels: Record<string, string> = {}): Promise<{ uid: string }> {
  const r = await fetch(base(), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ metadata: { name, labels } }),
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as { metadata: { uid: string } }).metadata;
}

const exists = async (name: string) => (await fetch(`${base()}/${name}`)).status === 200;

function del(path: string, body?: Buffer | string, contentType = PROTOBUF): Promise<Response> {
  const payload = typeof body === 'string' ? body : body && new Uint8Array(body);
  return fetch(`${base()}${path}`, {
    method: 'DELETE',
    ...(payload !== undefined ? { body: payload, headers: { 'Content-Type': contentType } } : {}),
  });
}

const options = (...fields: Buffer[]) => envelope('v1', 'DeleteOptions', Buffer.concat(fields));

describe('DELETE with a protobuf DeleteOptions body', () => {
  it('dryRun=All answers the object and keeps it', async () => {
    await create('dry');
    const r = await del('/dry', options(str(5, 'All')));
    expect(r.status).toBe(200);
    expect(await exists('dry')).toBe(true);
    expect((await del('/dry', options())).status).toBe(200);
    expect(await exists('dry')).toBe(false);
  });

  it('checks preconditions', async () => {
    const { uid } = await create('pre');
    const wrong = await del('/pre', options(msg(2, str(1, 'not-the-uid'))));
    expect(wrong.status).toBe(409);
    expect(((await wrong.json()) as { message: string }).message).toContain(
      'the UID in the precondition (not-the-uid) does not match the UID in record',
    );
    expect((await del('/pre', options(msg(2, str(1, uid))))).status).toBe(200);
  });

  it('answers 400 for a truncated body and keeps the object; skips a field it does not know, as gogo does', async () => {
    await create('unknown');
    // propagationPolicy (field 4) says 5 bytes follow; one does.
    const r = await del('/unknown', options(Buffer.from([0x22, 0x05, 0x42])));
    expect(r.status).toBe(400);
    expect(((await r.json()) as { message: string }).message).toMatch(/truncated/);
    expect(await exists('unknown')).toBe(true);
    await create('newer');
    expect((await del('/newer', options(str(4, 'Background'), bool(12, true)))).status).toBe(200);
    expect(await exists('newer')).toBe(false);
  });

  it('answers 422 for an unsupported propagationPolicy, naming the field', async () => {
    const r = await del('/unknown', options(str(4, 'Sideways')));
    expect(r.status).toBe(422);
    const status = (await r.json()) as { message: string; details: { causes: Array<{ field: string }> } };
    expect(status.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
    expect(status.details.causes[0]!.field).toBe('propagationPolicy');
  });
});

describe('DELETE-collection', () => {
  it('honours a protobuf body (dryRun) and the label selector', async () => {
    await create('c1', { set: 'x' });
    await create('c2', { set: 'x' });
    await create('c3', { set: 'y' });
    const dry = await del('?labelSelector=set%3Dx', options(str(5, 'All')));
    expect(dry.status).toBe(200);
    expect(((await dry.json()) as { items: unknown[] }).items).toHaveLength(2);
    expect([await exists('c1'), await exists('c2')]).toEqual([true, true]);
    expect((await del('?labelSelector=set%3Dx', options(str(4, 'Background')))).status).toBe(200);
    expect([await exists('c1'), await exists('c2'), await exists('c3')]).toEqual([false, false, true]);
  });
});

describe('DeleteOptions from the query, when there is no body', () => {
  it('dryRun and booleans the apimachinery way', async () => {
    await create('q');
    expect((await del('/q?dryRun=All')).status).toBe(200);
    expect(await exists('q')).toBe(true);
    const both = await del('/q?orphanDependents=True&propagationPolicy=Background');
    expect(both.status).toBe(422);
    expect(((await both.json()) as { message: string }).message).toContain(
      'orphanDependents and deletionPropagation cannot be both set',
    );
    expect((await del('/q?gracePeriodSeconds=soon')).status).toBe(400);
    expect((await del('/q?gracePeriodSeconds=0')).status).toBe(200);
    expect(await exists('q')).toBe(false);
  });

  it('a JSON body still works, and is the only source when present', async () => {
    await create('j');
    expect(
      (
        await del(
          '/j?dryRun=All',
          JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] }),
          'application/json',
        )
      ).status,
    ).toBe(200);
    expect(await exists('j')).toBe(true);
    // With a body, query options are not read (delete.go decodes one or the other).
    expect(
      (await del('/j?dryRun=All', JSON.stringify({ propagationPolicy: 'Background' }), 'application/json')).status,
    ).toBe(200);
    expect(await exists('j')).toBe(false);
  });

  it('answers 415 listing the media types a DeleteOptions body may have, for any other', async () => {
    await create('plain');
    const r = await del('/plain', '{"propagationPolicy":"Orphan"}', 'text/plain');
    expect(r.status).toBe(415);
    expect(((await r.json()) as { message: string }).message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
    expect(await exists('plain')).toBe(true);
  });
});
