// Finds the helm / kubectl / kustomize binaries the template step runs: an explicit env override,
// then the copies `npm ci` unpacks into <repo>/.tools/bin, then PATH.

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { REPO_TOOLS } from '../package-root.js';
import { StepError } from './types.js';

export type Tool = 'helm' | 'kubectl' | 'kustomize';

const ENV: Record<Tool, string> = { helm: 'FLOWOPS_HELM', kubectl: 'FLOWOPS_KUBECTL', kustomize: 'FLOWOPS_KUSTOMIZE' };

const HOW_TO_INSTALL: Record<Tool, string> = {
  helm: 'install helm 4 (https://helm.sh/docs/intro/install/) or run npm ci, which unpacks it into .tools/bin',
  kubectl: 'install kubectl (https://kubernetes.io/docs/tasks/tools/) or run npm ci, which unpacks it into .tools/bin',
  kustomize: 'install kustomize (https://kubectl.docs.kubernetes.io/installation/kustomize/) or kubectl',
};

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** The binary to run, or undefined; an env override that points nowhere is reported, not skipped. */
export function findTool(tool: Tool): string | undefined {
  const override = process.env[ENV[tool]];
  if (override) {
    if (executable(override)) return override;
    throw missingTool(tool, `${ENV[tool]}=${override} is not an executable file`);
  }
  const bundled = join(REPO_TOOLS, tool);
  if (executable(bundled)) return bundled;
  return onPath(tool);
}

export function missingTool(tool: Tool, detail?: string): StepError {
  return new StepError(`${tool} not found${detail ? ` (${detail})` : ''}: ${HOW_TO_INSTALL[tool]}`, {
    reason: 'ToolNotFound',
    permanent: true,
  });
}

export function requireTool(tool: Tool): string {
  const found = findTool(tool);
  if (!found) throw missingTool(tool, `looked at $${ENV[tool]}, ${join(REPO_TOOLS, tool)} and PATH`);
  return found;
}
