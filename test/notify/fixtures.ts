import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import type { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { Notifier } from '../../src/notify/index.js';
import type { OpenApiDocument } from './openapi-receiver.js';

/** A Flow over the ConfigMaps labelled `app: <app>`; each gets a child ConfigMap named by `child`. */
export function configMapFlow(name: string, app: string, child = '{{ .Resource.metadata.name }}-child'): string {
  return `apiVersion: flowops.io/v1
kind: Flow
metadata:
  name: ${name}
spec:
  watch:
    apiVersion: v1
    kind: ConfigMap
    labelSelector:
      matchLabels:
        app: ${app}
  reconcile:
    steps:
      - name: make-child
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: "${child}"
            namespace: "{{ .Resource.metadata.namespace }}"
          data:
            from: "{{ .Resource.metadata.name }}"
`;
}

export const configMapYaml = (name: string, app: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  labels:\n    app: ${app}\ndata:\n  k: v\n`;

export const secret = (name: string, data: Record<string, string>, namespace = 'default'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
});

export const provider = (name: string, spec: Record<string, unknown>, namespace = 'default'): KubeObject => ({
  apiVersion: 'flowops.io/v1',
  kind: 'Provider',
  metadata: { name, namespace },
  spec,
});
export const alert = (name: string, spec: Record<string, unknown>, namespace = 'default'): KubeObject => ({
  apiVersion: 'flowops.io/v1',
  kind: 'Alert',
  metadata: { name, namespace },
  spec,
});

/** A logger whose every line is kept, so a test can assert a token never reached one. */
export function capturedLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
}

export const sourcesDir = (): string => mkdtempSync(join(tmpdir(), 'flowops-notify-'));

const require = createRequire(import.meta.url);

/** GitHub's REST API description as @octokit/openapi publishes it (not dereferenced: 13 MB, read once). */
export function githubOpenApi(): OpenApiDocument {
  return JSON.parse(
    readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf8'),
  ) as OpenApiDocument;
}

/** A Notifier quick enough for a test: commits checked every 200 ms, a 60 s deadline, short backoff. */
export function testNotifier(kube: KubeClient, log: Logger, viewUrl: string): Notifier {
  return new Notifier({
    kube,
    log,
    viewUrl,
    commitCheckEveryMs: 200,
    commitDeadlineMs: 60_000,
    backoff: { baseMs: 100, maxMs: 400 },
  });
}
