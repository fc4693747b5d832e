import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TestRepo } from '../helpers/git-server.js';
import { gitAsync } from '../helpers/git-server.js';
import type { OpenApiDocument } from '../notify/openapi-receiver.js';

/** A Flow that runs one Deployment per watched ConfigMap, with the image given. */
export function imageFlow(name: string, image: string): string {
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
        app: ${name}
  reconcile:
    steps:
      - name: deploy
        type: kubectl
        action: apply
        manifests: |
          apiVersion: apps/v1
          kind: Deployment
          metadata:
            name: "{{ .Resource.metadata.name }}"
            namespace: "{{ .Resource.metadata.namespace }}"
          spec:
            selector:
              matchLabels:
                app: "{{ .Resource.metadata.name }}"
            template:
              metadata:
                labels:
                  app: "{{ .Resource.metadata.name }}"
              spec:
                containers:
                  - name: app
                    image: ${image}
`;
}

export const deploymentYaml = (name: string, image: string, replicas = 1): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
        - name: app
          image: ${image}
`;

export const secretYaml = (name: string, password: string): string => `apiVersion: v1
kind: Secret
metadata:
  name: ${name}
  namespace: default
type: Opaque
data:
  password: ${Buffer.from(password).toString('base64')}
stringData:
  username: admin-${password}
`;

/**
 * Commits `files` on top of `base` and pushes the commit to `ref` only (the forge's pull-request
 * ref, as GitHub and Gitea keep refs/pull/N/head and GitLab refs/merge-requests/N/head); the
 * branch the source follows does not move.
 */
export async function pushPullRequest(
  repo: TestRepo,
  base: string,
  ref: string,
  files: Record<string, string | null>,
): Promise<string> {
  repo.git('checkout', '-q', '--detach', base);
  for (const [path, content] of Object.entries(files)) {
    const full = join(repo.work, path);
    if (content === null) rmSync(full, { force: true });
    else {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
    }
  }
  repo.git('add', '-A');
  repo.git('commit', '-q', '--allow-empty', '-m', `pull request ${ref}`);
  const sha = repo.git('rev-parse', 'HEAD');
  await gitAsync(repo.work, 'push', '-q', '-f', 'origin', `HEAD:${ref}`);
  repo.git('checkout', '-q', 'main');
  return sha;
}

const SCHEMAS = join(import.meta.dirname, 'schemas');
export const giteaOpenApi = (): OpenApiDocument =>
  JSON.parse(readFileSync(join(SCHEMAS, 'gitea-openapi.json'), 'utf8')) as OpenApiDocument;
export const bitbucketOpenApi = (): OpenApiDocument =>
  JSON.parse(readFileSync(join(SCHEMAS, 'bitbucket-cloud-openapi.json'), 'utf8')) as OpenApiDocument;
export const gitlabDocumented = (): OpenApiDocument =>
  JSON.parse(readFileSync(join(SCHEMAS, 'gitlab-documented.json'), 'utf8')) as OpenApiDocument;

/**
 * A Flow whose first step is a script that would leave `marker` behind if it ran, then applies a
 * Secret (the watched Store's spec.backup, a credential) and a Deployment per Store (example.com/v1,
 * test/typecheck's CRD) labelled app=<name>.
 */
export function scriptedFlow(name: string, image: string, marker: string): string {
  return `apiVersion: flowops.io/v1
kind: Flow
metadata:
  name: ${name}
spec:
  watch:
    apiVersion: example.com/v1
    kind: Store
    labelSelector:
      matchLabels:
        app: ${name}
  reconcile:
    steps:
      - name: touch
        type: script
        script: |
          #!/bin/bash
          touch ${marker}
      - name: deploy
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: Secret
          metadata:
            name: "{{ .Resource.metadata.name }}-smtp"
            namespace: "{{ .Resource.metadata.namespace }}"
          stringData:
            password: "{{ .Resource.spec.backup | default "none" }}"
          ---
          apiVersion: apps/v1
          kind: Deployment
          metadata:
            name: "{{ .Resource.metadata.name }}"
            namespace: "{{ .Resource.metadata.namespace }}"
          spec:
            selector:
              matchLabels:
                app: "{{ .Resource.metadata.name }}"
            template:
              metadata:
                labels:
                  app: "{{ .Resource.metadata.name }}"
              spec:
                containers:
                  - name: app
                    image: ${image}
`;
}
