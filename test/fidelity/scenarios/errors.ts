import { HELD } from './deletes.js';
import {
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
} from '../scenario.js';

// The error answers clients branch on: their code, reason, message and causes.

const cm = (name: string, data: Record<string, unknown> = { a: '1' }) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});
const CMS = '/api/v1/namespaces/{ns}/configmaps';
const DEPLOYS = '/apis/apps/v1/namespaces/{ns}/deployments';
const WIDGETS = '/apis/fidelity.flowops.io/v1/namespaces/{ns}/widgets';
/** A continue token in kube-apiserver's format, made by hand (a client may send anything). */
const token = (body: unknown): string =>
  Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)).toString('base64url');
const V1 = 'meta.k8s.io/v1';
const cont = (t: string, more = '') => get(`${CMS}?limit=1${more}&continue=${t}`);
const widget = (spec: Record<string, unknown>) => ({
  apiVersion: 'fidelity.flowops.io/v1',
  kind: 'Widget',
  metadata: { name: 'w' },
  spec,
});

export const ERROR_SCENARIOS: Scenario[] = [
  { name: 'error: 404 object not found', steps: [get(`${CMS}/missing`)] },
  { name: 'error: 404 namespace not found', steps: [get('/api/v1/namespaces/no-such-namespace-fid/configmaps/x')] },
  { name: 'error: 404 unknown resource', steps: [get('/api/v1/namespaces/{ns}/widgetz')] },
  { name: 'error: 404 unknown group', steps: [get('/apis/nosuch.example.com/v1/things')], noNamespace: true },
  { name: 'error: 404 unknown version', steps: [get('/apis/apps/v9/deployments')], noNamespace: true },
  { name: 'error: 404 custom resource not found', steps: [get(`${WIDGETS}/missing`)] },
  { name: 'error: 404 delete missing', steps: [del(`${CMS}/missing`)] },
  { name: 'error: 404 patch missing', steps: [patch(`${CMS}/missing`, MERGE_PATCH, { data: { a: '2' } })] },
  { name: 'error: 404 put missing', steps: [put(`${CMS}/missing`, cm('missing'))] },
  {
    name: 'error: 404 create in a missing namespace',
    steps: [post('/api/v1/namespaces/no-such-namespace-fid/configmaps', cm('a'))],
  },
  { name: 'error: 409 AlreadyExists', steps: [setup(post(CMS, cm('a'))), post(CMS, cm('a'))] },
  {
    name: 'error: 409 AlreadyExists for a custom resource',
    steps: [setup(post(WIDGETS, widget({ replicas: 1 }))), post(WIDGETS, widget({ replicas: 1 }))],
  },
  {
    name: 'error: 409 Conflict on a stale resourceVersion',
    steps: [
      setup(post(CMS, cm('a'))),
      put(`${CMS}/a`, { ...cm('a', { a: '2' }), metadata: { name: 'a', resourceVersion: '1' } }),
    ],
  },
  { name: 'error: 422 invalid name', steps: [post(CMS, cm('Not_A_Name'))] },
  { name: 'error: 422 name too long', steps: [post(CMS, cm('a'.repeat(254)))] },
  {
    name: 'error: 422 invalid label value',
    steps: [post(CMS, { ...cm('a'), metadata: { name: 'a', labels: { k: 'not valid!' } } })],
  },
  {
    name: 'error: 422 invalid label key',
    steps: [post(CMS, { ...cm('a'), metadata: { name: 'a', labels: { 'bad key': 'v' } } })],
  },
  { name: 'error: 422 invalid configmap data key', steps: [post(CMS, cm('a', { 'bad key': 'v' }))] },
  {
    name: 'error: 422 deployment without selector',
    steps: [
      post(DEPLOYS, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd' },
        spec: { template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
      }),
    ],
  },
  {
    name: 'error: 422 deployment selector does not match template',
    steps: [
      post(DEPLOYS, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd' },
        spec: {
          selector: { matchLabels: { a: 'x' } },
          template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        },
      }),
    ],
  },
  {
    name: 'error: 422 deployment without containers',
    steps: [
      post(DEPLOYS, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd' },
        spec: {
          selector: { matchLabels: { a: 'b' } },
          template: { metadata: { labels: { a: 'b' } }, spec: { containers: [] } },
        },
      }),
    ],
  },
  {
    name: 'error: 422 service without ports',
    steps: [
      post('/api/v1/namespaces/{ns}/services', {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's' },
        spec: { selector: { a: 'b' } },
      }),
    ],
  },
  {
    name: 'error: 422 service port out of range',
    steps: [
      post('/api/v1/namespaces/{ns}/services', {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's' },
        spec: { ports: [{ port: 70000 }] },
      }),
    ],
  },
  { name: 'error: 422 custom resource missing required field', steps: [post(WIDGETS, widget({}))] },
  { name: 'error: 422 custom resource below minimum', steps: [post(WIDGETS, widget({ replicas: -1 }))] },
  { name: 'error: 422 custom resource not in enum', steps: [post(WIDGETS, widget({ replicas: 1, color: 'green' }))] },
  { name: 'error: 422 custom resource too long', steps: [post(WIDGETS, widget({ replicas: 1, size: 'enormous' }))] },
  { name: 'error: 422 custom resource wrong type', steps: [post(WIDGETS, widget({ replicas: 'one' }))] },
  {
    name: 'error: 422 immutable field',
    steps: [
      setup(
        post('/api/v1/namespaces/{ns}/secrets', {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 's' },
          type: 'Opaque',
          data: {},
        }),
      ),
      patch('/api/v1/namespaces/{ns}/secrets/s', MERGE_PATCH, { type: 'kubernetes.io/tls' }),
    ],
  },
  {
    name: 'error: 422 immutable configmap',
    steps: [setup(post(CMS, { ...cm('a'), immutable: true })), patch(`${CMS}/a`, MERGE_PATCH, { data: { a: '2' } })],
  },
  { name: 'error: 400 malformed JSON', steps: [post(CMS, '{"apiVersion": "v1", "kind": ')] },
  { name: 'error: 400 body is not an object', steps: [post(CMS, '[1, 2]')] },
  {
    name: 'error: 400 kind mismatch',
    steps: [post(CMS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a' } })],
  },
  {
    name: 'error: 400 namespace mismatch',
    steps: [post(CMS, { ...cm('a'), metadata: { name: 'a', namespace: 'other' } })],
  },
  { name: 'error: 400 name mismatch on put', steps: [setup(post(CMS, cm('a'))), put(`${CMS}/a`, cm('b'))] },
  {
    name: 'error: 400 json patch not a list',
    steps: [setup(post(CMS, cm('a'))), patch(`${CMS}/a`, JSON_PATCH, { op: 'add' })],
  },
  {
    name: 'error: 422 json patch test fails',
    steps: [setup(post(CMS, cm('a'))), patch(`${CMS}/a`, JSON_PATCH, [{ op: 'test', path: '/data/a', value: 'nope' }])],
  },
  {
    name: 'error: 422 json patch path missing',
    steps: [
      setup(post(CMS, cm('a'))),
      patch(`${CMS}/a`, JSON_PATCH, [{ op: 'replace', path: '/data/zzz', value: 'x' }]),
    ],
  },
  {
    name: 'error: 400 merge patch malformed',
    steps: [setup(post(CMS, cm('a'))), patch(`${CMS}/a`, MERGE_PATCH, '{"data": ')],
  },
  { name: 'error: 400 invalid label selector', steps: [get(`${CMS}?labelSelector=a%20in%20(b`)] },
  { name: 'error: 400 invalid field selector', steps: [get(`${CMS}?fieldSelector=spec.nonsense%3Dx`)] },
  { name: 'error: 400 invalid limit', steps: [get(`${CMS}?limit=abc`)] },
  { name: 'error: 400 invalid continue token', steps: [get(`${CMS}?limit=1&continue=not-a-token`)] },
  {
    name: 'error: 504 continue token from the future',
    steps: [
      setup(post(CMS, cm('a'))),
      setup(post(CMS, cm('b'))),
      cont(token({ v: V1, rv: 99999999999, start: 'a\u0000' })),
    ],
  },
  { name: 'error: 400 continue token not base64', steps: [cont('abc%3D')] },
  { name: 'error: 400 continue token cut short', steps: [cont('abcde')] },
  { name: 'error: 400 continue token not JSON', steps: [cont(token('{"v":"meta.k8s.io/v1",'))] },
  {
    name: 'error: 400 continue token of another version',
    steps: [cont(token({ v: 'meta.k8s.io/v2', rv: 5, start: 'a' }))],
  },
  { name: 'error: 400 continue token without a revision', steps: [cont(token({ v: V1, start: 'a' }))] },
  { name: 'error: 400 continue token with a string revision', steps: [cont(token({ v: V1, rv: '5', start: 'a' }))] },
  { name: 'error: 400 continue token without a start', steps: [cont(token({ v: V1, rv: 5 }))] },
  {
    name: 'error: 400 continue token escaping its collection',
    steps: [cont(token({ v: V1, rv: 5, start: '../secrets/x' }))],
  },
  {
    name: 'error: 400 continue token with a resourceVersion',
    steps: [cont(token({ v: V1, rv: 5, start: 'a' }), '&resourceVersion=5')],
  },
  { name: 'error: 400 dryRun unknown value', steps: [post(`${CMS}?dryRun=Maybe`, cm('a'))] },
  { name: 'error: 400 unknown fieldValidation', steps: [post(`${CMS}?fieldValidation=Sometimes`, cm('a'))] },
  {
    name: 'error: 400 strict field validation unknown field',
    steps: [post(`${CMS}?fieldValidation=Strict`, { ...cm('a'), bogus: 1 })],
  },
  {
    name: 'error: 400 apply without fieldManager',
    steps: [patch(`${CMS}/a`, { 'Content-Type': 'application/apply-patch+yaml' }, cm('a'))],
  },
  { name: 'error: 405 post to an object', steps: [setup(post(CMS, cm('a'))), post(`${CMS}/a`, cm('a'))] },
  { name: 'error: 405 put to a collection', steps: [put(CMS, cm('a'))] },
  { name: 'error: 405 patch a collection', steps: [patch(CMS, MERGE_PATCH, {})] },
  {
    name: 'error: 415 unsupported content type',
    steps: [post(CMS, 'a: 1', { headers: { 'Content-Type': 'text/plain' } })],
  },
  {
    name: 'error: 415 unsupported patch type',
    steps: [setup(post(CMS, cm('a'))), patch(`${CMS}/a`, { 'Content-Type': 'application/json' }, { data: { a: '2' } })],
  },
  {
    name: 'error: 415 strategic merge patch on a custom resource',
    steps: [
      setup(post(WIDGETS, widget({ replicas: 1 }))),
      patch(`${WIDGETS}/w`, STRATEGIC_PATCH, { spec: { replicas: 2 } }),
    ],
  },
  { name: 'error: 406 unsupported accept', steps: [get(CMS, { headers: { Accept: 'text/html' } })] },
  {
    name: 'error: 403 delete a system namespace',
    steps: [del('/api/v1/namespaces/kube-system', undefined, { headers: { Accept: 'application/json' } })],
    noNamespace: true,
  },
  { name: 'error: 404 status of a kind without one', steps: [setup(post(CMS, cm('a'))), get(`${CMS}/a/status`)] },
  {
    name: 'error: 422 namespace name invalid',
    steps: [post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'Bad_NS' } })],
    noNamespace: true,
  },
  {
    name: 'error: 403 create in a terminating namespace',
    steps: [HELD, setup(del('/api/v1/namespaces/{ns}')), post(CMS, cm('a'))],
  },
];
