// Writes src/apiserver/bootstrap/bootstrap-objects.json (`npm run gen:bootstrap-objects`): the objects
// kube-apiserver v<KUBERNETES_VERSION> creates for itself on start, read from a real one rather than
// transcribed: the flow-control bootstrap (k8s.io/apiserver pkg/apis/flowcontrol/bootstrap: mandatory and
// suggested FlowSchemas and PriorityLevelConfigurations) and kube-aggregator's local APIServices.
// Starts scripts/control-plane/up.sh (without kube-controller-manager) in a temp dir, or reads the
// server of the kubeconfig given as the first argument.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOOTSTRAP_OBJECTS_FILE } from '../src/apiserver/bootstrap/bootstrap-files.js';

type Json = Record<string, unknown>;
const KUBECTL = join(import.meta.dirname, '../.tools/bin/kubectl');
const UP = join(import.meta.dirname, 'control-plane/up.sh');
const DOWN = join(import.meta.dirname, 'control-plane/down.sh');

function list(kubeconfig: string, resource: string): Json[] {
  const out = execFileSync(KUBECTL, ['--kubeconfig', kubeconfig, 'get', resource, '-o', 'json'], { encoding: 'utf8' });
  return (JSON.parse(out) as { items: Json[] }).items;
}

/** What the server itself sets on create (uid, resourceVersion, status…) goes; spec and identity stay. */
function portable(obj: Json, apiVersion: string, kind: string): Json {
  const meta = obj.metadata as Json;
  const keep: Json = { name: meta.name };
  if (meta.labels) keep.labels = meta.labels;
  if (meta.annotations) keep.annotations = meta.annotations;
  return { apiVersion, kind, metadata: keep, spec: obj.spec };
}

function read(kubeconfig: string): Json {
  const byName = (a: Json, b: Json): number =>
    String((a.metadata as Json).name) < String((b.metadata as Json).name) ? -1 : 1;
  const fc = 'flowcontrol.apiserver.k8s.io/v1';
  return {
    priorityLevelConfigurations: list(kubeconfig, 'prioritylevelconfigurations')
      .sort(byName)
      .map((o) => portable(o, fc, 'PriorityLevelConfiguration')),
    flowSchemas: list(kubeconfig, 'flowschemas')
      .sort(byName)
      .map((o) => portable(o, fc, 'FlowSchema')),
    apiServices: list(kubeconfig, 'apiservices')
      .sort(byName)
      .map((o) => portable(o, 'apiregistration.k8s.io/v1', 'APIService')),
  };
}

const given = process.argv[2];
let objects: Json;
if (given) objects = read(given);
else {
  const dir = mkdtempSync(join(tmpdir(), 'gen-bootstrap-'));
  try {
    execFileSync('bash', [UP, dir], {
      stdio: 'inherit',
      env: { ...process.env, CONTROL_PLANE_CONTROLLER_MANAGER: '0' },
    });
    objects = read(join(dir, 'kubeconfig'));
  } finally {
    execFileSync('bash', [DOWN, dir], { stdio: 'inherit' });
    rmSync(dir, { recursive: true, force: true });
  }
}
writeFileSync(BOOTSTRAP_OBJECTS_FILE, `${JSON.stringify(objects, null, 1)}\n`);
console.log(`wrote ${BOOTSTRAP_OBJECTS_FILE}`);
