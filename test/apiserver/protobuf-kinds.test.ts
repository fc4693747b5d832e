import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinDefaulting, DefaultAdmissionPlugins } from '../../src/apiserver/defaults/index.js';
import { zeroValueOf } from '../../src/apiserver/defaults/zero-values.js';
import { dropEmptyMetadataFields } from '../../src/apiserver/objects/meta.js';
import { BUILTIN_TYPES } from '../../src/apiserver/registry/builtins.js';
import { decodeKubeProtobuf, isProtobufContentType } from '../../src/apiserver/protobuf/index.js';
import { apiVersionOf, type JsonObject, type ResourceType } from '../../src/apiserver/registry/types.js';
import { writeKubeconfig } from '../../src/kube/kubeconfig.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { binaryVersion, KUBECTL, kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { startRecordingProxy, type RecordedRequest, type RecordingProxy } from '../helpers/recording-proxy.js';
import { richCronJob } from '../fixtures/rich-cronjob.js';
import { envelope, int, objectMeta } from './helpers/pb-encoder.js';

/**
 * Every `kubectl create` generator that sends protobuf, against the embedded server through a proxy
 * that keeps the request bodies. For each: the body must be protobuf, and both the object decoded from
 * it and the object the server stored must equal what `--dry-run=client -o json` prints for the same
 * command (kubectl builds that client-side, as JSON), but for the fields the server sets itself.
 */

const CANDIDATES: Array<[string, string]> = [
  ['1.35', KUBECTL],
  ['1.33', '/usr/lib/google-cloud-sdk/bin/kubectl.1.33'],
];
const present = CANDIDATES.filter(([minor, path]) => {
  if (existsSync(path)) return true;
  console.log(`kubectl ${minor}: skipped, no binary at ${path}`);
  return false;
});

const NS = 'pb';

type Obj = Record<string, unknown>;

interface Case {
  name: string;
  /** The command without --dry-run; namespaced commands get `-n pb`. */
  args: string[];
  /** What to `kubectl get` afterwards; absent: the server does not serve the kind, only the body is checked. */
  get?: [resource: string, name: string];
  namespaced?: boolean;
  /** `kubectl run` and `kubectl expose` send JSON: checked all the same, as the reference. */
  json?: boolean;
}

const CASES: Case[] = [
  {
    name: 'service clusterip',
    args: ['create', 'service', 'clusterip', 'web', '--tcp=80:8080', '--tcp=443:https'],
    get: ['service', 'web'],
  },
  {
    name: 'service clusterip (headless)',
    args: ['create', 'service', 'clusterip', 'headless', '--clusterip=None'],
    get: ['service', 'headless'],
  },
  {
    name: 'service nodeport',
    args: ['create', 'service', 'nodeport', 'np', '--tcp=80:8080', '--node-port=30080'],
    get: ['service', 'np'],
  },
  {
    name: 'service loadbalancer',
    args: ['create', 'service', 'loadbalancer', 'lb', '--tcp=5678:8080'],
    get: ['service', 'lb'],
  },
  {
    name: 'service externalname',
    args: ['create', 'service', 'externalname', 'ext', '--external-name=example.com', '--tcp=80'],
    get: ['service', 'ext'],
  },
  {
    name: 'deployment',
    args: ['create', 'deployment', 'dep', '--image=nginx', '--image=redis:7', '--replicas=3', '--port=80'],
    get: ['deployment', 'dep'],
  },
  {
    name: 'deployment with a command',
    args: ['create', 'deployment', 'cmd', '--image=busybox', '--', 'sleep', '3600'],
    get: ['deployment', 'cmd'],
  },
  {
    name: 'job',
    args: ['create', 'job', 'job1', '--image=busybox', '--', 'sh', '-c', 'echo hi'],
    get: ['job', 'job1'],
  },
  {
    name: 'cronjob',
    args: ['create', 'cronjob', 'cj', '--image=busybox', '--schedule=*/5 * * * *', '--restart=OnFailure', '--', 'date'],
    get: ['cronjob', 'cj'],
  },
  { name: 'job --from=cronjob', args: ['create', 'job', 'from-cj', '--from=cronjob/cj'], get: ['job', 'from-cj'] },
  {
    name: 'job --from=cronjob (every PodSpec field)',
    args: ['create', 'job', 'from-rich', '--from=cronjob/rich'],
    get: ['job', 'from-rich'],
  },
  { name: 'serviceaccount', args: ['create', 'serviceaccount', 'sa1'], get: ['serviceaccount', 'sa1'] },
  {
    name: 'role',
    args: [
      'create',
      'role',
      'r1',
      '--verb=get,list,watch',
      '--resource=pods,deployments.apps,pods/log',
      '--resource-name=a',
      '--resource-name=b',
    ],
    get: ['role', 'r1'],
  },
  {
    name: 'rolebinding',
    args: ['create', 'rolebinding', 'rb1', '--role=r1', '--user=alice', '--group=devs', `--serviceaccount=${NS}:sa1`],
    get: ['rolebinding', 'rb1'],
  },
  {
    name: 'rolebinding to a clusterrole',
    args: ['create', 'rolebinding', 'rb2', '--clusterrole=view', '--user=bob'],
    get: ['rolebinding', 'rb2'],
  },
  {
    name: 'clusterrole',
    args: ['create', 'clusterrole', 'pb-cr1', '--verb=get', '--resource=nodes', '--non-resource-url=/logs/*'],
    get: ['clusterrole', 'pb-cr1'],
    namespaced: false,
  },
  {
    name: 'clusterrole with an aggregation rule',
    args: ['create', 'clusterrole', 'pb-agg', '--aggregation-rule=rbac.example.com/aggregate-to-pb=true'],
    get: ['clusterrole', 'pb-agg'],
    namespaced: false,
  },
  {
    name: 'clusterrolebinding',
    args: [
      'create',
      'clusterrolebinding',
      'pb-crb1',
      '--clusterrole=pb-cr1',
      '--user=bob',
      '--group=ops',
      `--serviceaccount=${NS}:sa1`,
    ],
    get: ['clusterrolebinding', 'pb-crb1'],
    namespaced: false,
  },
  {
    name: 'quota',
    args: [
      'create',
      'quota',
      'q1',
      // Only pod resources: kube-apiserver refuses a NotTerminating scope over requests.storage.
      '--hard=cpu=1000m,memory=1Gi,pods=2',
      '--scopes=NotTerminating',
    ],
    get: ['quota', 'q1'],
  },
  {
    name: 'priorityclass',
    args: [
      'create',
      'priorityclass',
      'pb-pc',
      '--value=1000',
      '--global-default=true',
      '--description=high',
      '--preemption-policy=Never',
    ],
    get: ['priorityclass', 'pb-pc'],
    namespaced: false,
  },
  {
    name: 'poddisruptionbudget (min-available)',
    args: ['create', 'poddisruptionbudget', 'pdb1', '--selector=app=x', '--min-available=1'],
    get: ['pdb', 'pdb1'],
  },
  {
    name: 'poddisruptionbudget (max-unavailable)',
    args: ['create', 'poddisruptionbudget', 'pdb2', '--selector=app=y', '--max-unavailable=50%'],
    get: ['pdb', 'pdb2'],
  },
  {
    name: 'ingress',
    args: [
      'create',
      'ingress',
      'ing1',
      '--class=nginx',
      '--rule=foo.com/bar=svc1:8080',
      '--rule=bar.com/*=svc2:http,tls=bar-cert',
      '--default-backend=defsvc:80',
      '--annotation=example.com/a=b',
    ],
    get: ['ingress', 'ing1'],
  },
  { name: 'namespace', args: ['create', 'namespace', 'pb-other'], get: ['namespace', 'pb-other'], namespaced: false },
  {
    name: 'configmap',
    args: ['create', 'configmap', 'cm1', '--from-literal=a=b', '--from-literal=empty='],
    get: ['configmap', 'cm1'],
  },
  {
    name: 'secret generic',
    args: ['create', 'secret', 'generic', 's1', '--from-literal=x=y', '--type=example.com/t'],
    get: ['secret', 's1'],
  },
  {
    name: 'secret docker-registry',
    args: [
      'create',
      'secret',
      'docker-registry',
      'reg',
      '--docker-server=r.example.com',
      '--docker-username=u',
      '--docker-password=p',
    ],
    get: ['secret', 'reg'],
  },
  {
    name: 'run (JSON)',
    args: ['run', 'pod1', '--image=nginx', '--port=80', '--labels=app=p', '--env=A=1'],
    get: ['pod', 'pod1'],
    json: true,
  },
  {
    name: 'expose (JSON)',
    args: ['expose', 'deployment', 'dep', '--port=80', '--target-port=8080', '--name=dep-svc'],
    get: ['service', 'dep-svc'],
    json: true,
  },
];

/** kubectl ≤ 1.33 prints a zero metav1.Time as null, 1.34+ leaves it out; the protobuf is the same. */
function withoutNullTimestamps(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNullTimestamps);
  if (!v || typeof v !== 'object') return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'creationTimestamp' && x === null) continue;
    out[k] = withoutNullTimestamps(x);
  }
  return out;
}

const SERVER_SET = ['uid', 'creationTimestamp', 'resourceVersion', 'managedFields', 'generation'];

/** The stored object without what the server sets on create (and the status it resets). */
function asCreated(stored: Obj): Obj {
  const meta = { ...(stored.metadata as Obj) };
  for (const k of SERVER_SET) delete meta[k];
  const out: Obj = { ...stored, metadata: meta };
  delete out.status;
  if (stored.kind === 'Namespace') delete out.spec;
  return out;
}

/**
 * The dry-run object as the server should store it: in the request's namespace, without status, and
 * defaulted as kube-apiserver defaults it (the tables in src/apiserver/defaults are checked on their
 * own; here the point is that the protobuf body and the JSON one end up the same).
 */
function builtinType(obj: Obj): ResourceType {
  const t = BUILTIN_TYPES.find((b) => apiVersionOf(b) === obj.apiVersion && b.kind === obj.kind);
  if (!t) throw new Error(`${String(obj.apiVersion)} ${String(obj.kind)} is not a served built-in`);
  return t;
}

function expectedStored(dryRun: Obj, namespaced: boolean, stored: Obj): Obj {
  const out = structuredClone({ ...dryRun, metadata: { ...(dryRun.metadata as Obj) } }) as JsonObject;
  if (namespaced) (out.metadata as Obj).namespace ??= NS;
  delete out.status;
  if (dryRun.kind === 'Namespace') delete out.spec;
  // Defaulting may use the uid the server gave the object (a Job's generated selector).
  (out.metadata as Obj).uid = (stored.metadata as Obj).uid;
  dropEmptyMetadataFields(out.metadata);
  // The server's own steps: defaulting (zero values included), then what its storage adds after the field manager.
  const t = builtinType(dryRun);
  new BuiltinDefaulting().admit(t, 'CREATE', out);
  new DefaultAdmissionPlugins().admit(t, 'CREATE', out);
  if (dryRun.kind === 'Namespace') delete out.spec;
  delete (out.metadata as Obj).uid;
  delete out.status;
  return out;
}

/**
 * What the server allocates rather than defaults, copied from the stored object like its uid: a
 * Service's cluster IPs, IP families and the node ports it was not given (service-allocation.test.ts checks them).
 */
function withAllocated(expected: Obj, stored: Obj): Obj {
  if (expected.kind === 'Pod') return withTokenVolume(withAdmittedPodFields(expected, stored), stored);
  if (expected.kind !== 'Service') return expected;
  const spec = expected.spec as Obj;
  const storedSpec = stored.spec as Obj;
  for (const k of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'healthCheckNodePort'])
    if (storedSpec[k] !== undefined) spec[k] ??= storedSpec[k];
  const storedPorts = (storedSpec.ports ?? []) as Obj[];
  ((spec.ports ?? []) as Obj[]).forEach((p, i) => {
    if (p.nodePort === undefined && storedPorts[i]?.nodePort !== undefined) p.nodePort = storedPorts[i]!.nodePort;
  });
  return expected;
}

/**
 * What the Priority plugin (the global default PriorityClass an earlier case made) and
 * DefaultTolerationSeconds set on a Pod: copied from the stored one, since admission-plugins.test.ts
 * checks their values; this file checks the decoding.
 */
function withAdmittedPodFields(expected: Obj, stored: Obj): Obj {
  const spec = expected.spec as Obj;
  const storedSpec = stored.spec as Obj;
  for (const k of ['priority', 'priorityClassName', 'preemptionPolicy', 'tolerations']) {
    if (storedSpec[k] !== undefined) spec[k] ??= storedSpec[k];
  }
  return expected;
}

/**
 * The ServiceAccount admission plugin's projected token volume has a generated name
 * (`kube-api-access-<5>`): copied from the stored Pod, with its mounts (admission-service-account.test.ts checks them).
 */
function withTokenVolume(expected: Obj, stored: Obj): Obj {
  const isToken = (v: Obj): boolean => String(v.name).startsWith('kube-api-access-');
  const spec = expected.spec as Obj;
  const storedSpec = stored.spec as Obj;
  const volume = ((storedSpec.volumes ?? []) as Obj[]).find(isToken);
  if (!volume) return expected;
  spec.volumes = [...((spec.volumes ?? []) as Obj[]), volume];
  for (const key of ['initContainers', 'containers']) {
    const storedContainers = (storedSpec[key] ?? []) as Obj[];
    ((spec[key] ?? []) as Obj[]).forEach((c, i) => {
      const mount = ((storedContainers[i]?.volumeMounts ?? []) as Obj[]).find(isToken);
      if (mount) c.volumeMounts = [...((c.volumeMounts ?? []) as Obj[]), mount];
    });
  }
  return expected;
}

describe.each(present)('kubectl %s create generators send protobuf the server decodes like JSON', (minor, binary) => {
  let ts: TestServer;
  let proxy: RecordingProxy;
  let kubectl: Kubectl;

  beforeAll(async () => {
    ts = await startTestServer();
    proxy = await startRecordingProxy(ts.server.url);
    const dir = mkdtempSync(join(tmpdir(), 'protobuf-kinds-'));
    const kubeconfig = join(dir, 'kubeconfig');
    writeKubeconfig(kubeconfig, proxy.url);
    kubectl = kubectlFor(kubeconfig, dir, binary);
    expect(binaryVersion(binary)).toContain(`v${minor}.`);
    await kubectl.ok(['create', 'namespace', NS]);
    await kubectl.ok(['create', '-f', '-'], richCronJob(NS));
  });
  afterAll(async () => {
    await proxy?.close();
    await ts?.stop();
  });

  it.each(CASES)('$name', async ({ args, get, namespaced = true, json = false }) => {
    const ns = namespaced ? ['-n', NS] : [];
    // Flags go before `--`: what follows it is the container's command.
    const withFlags = (...flags: string[]): string[] => {
      const dash = args.indexOf('--');
      return dash < 0 ? [...args, ...flags] : [...args.slice(0, dash), ...flags, ...args.slice(dash)];
    };
    const dryRun = withoutNullTimestamps(
      JSON.parse(await kubectl.ok(withFlags(...ns, '--dry-run=client', '-o', 'json'))),
    ) as Obj;

    const before = proxy.requests.length;
    const run = await kubectl(withFlags(...ns));
    const posts = proxy.requests.slice(before).filter((r: RecordedRequest) => r.method === 'POST');
    expect(posts, `${args.join(' ')} should POST the object once`).toHaveLength(1);
    const post = posts[0]!;
    expect(isProtobufContentType(post.contentType), `content type ${post.contentType}`).toBe(!json);

    if (!json) {
      // Status included: the server drops it on create, so only this check sees how it decodes.
      const decoded = decodeKubeProtobuf(post.body).object;
      const want = { ...dryRun };
      expect(decoded).toStrictEqual(want);
      // Keys in Go declaration order too, as kubectl prints them (apiVersion and kind aside).
      const body = ({ apiVersion: _a, kind: _k, ...rest }: Obj): string => JSON.stringify(rest, null, 1);
      expect(body(decoded)).toBe(body(want));
    }
    if (!get) {
      expect(post.status).toBe(404);
      return;
    }
    expect(run.code, run.stderr).toBe(0);
    const stored = JSON.parse(await kubectl.ok(['get', ...get, ...ns, '-o', 'json'])) as Obj;
    // Status is reset on create: to nothing, or to what the server sets (a Pod is Pending).
    if (stored.kind === 'Pod') expect(stored.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    else if (stored.kind !== 'Namespace')
      expect(stored.status, 'status is reset on create (to what the Go type always encodes)').toEqual(
        zeroValueOf(builtinType(stored))?.status,
      );
    expect(asCreated(stored)).toStrictEqual(withAllocated(expectedStored(dryRun, namespaced, stored), stored));
  });

  it('skips a protobuf field 1.34 does not know, as kube-apiserver does', async () => {
    // A ServiceAccount with field 99 = 1 after its metadata.
    const body = envelope('v1', 'ServiceAccount', Buffer.concat([objectMeta({ name: 'newer' }), int(99, 1)]));
    const res = await fetch(`${ts.server.url}/api/v1/namespaces/${NS}/serviceaccounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
      body: new Uint8Array(body),
    });
    expect(res.status).toBe(201);
    expect(await kubectl.ok(['get', 'serviceaccount', 'newer', '-n', NS, '-o', 'name'])).toContain(
      'serviceaccount/newer',
    );
  });
});
