// The environment a script runs with, and the outputs file it writes.

import { join } from 'node:path';
import type { ScriptStep } from '../api/index.js';
import { renderText } from './render.js';
import { invalid } from './step-errors.js';
import type { Outputs, StepContext } from './types.js';

// Only these are inherited from the FlowOps process: its own environment holds credentials
// (REDIS_URL, KUBECONFIG, cloud tokens) that a Flow author's script has no business reading. The
// script's KUBECONFIG is its own: the identity proxy with a token for this run (identity-proxy.ts).
const INHERITED = [
  'PATH',
  'LANG',
  'LC_ALL',
  'TZ',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'SSL_CERT_FILE',
];

const MAX_ENV_VALUE = 64 * 1024;

export const envName = (s: string): string => s.toUpperCase().replace(/[^A-Z0-9]/g, '_');

export interface ScriptFiles {
  dir: string;
  resource: string;
  context: string;
  outputs: string;
  /** Points at the identity proxy with this run's token. */
  kubeconfig: string;
}

export function scriptFiles(dir: string): ScriptFiles {
  return {
    dir,
    resource: join(dir, 'resource.json'),
    context: join(dir, 'context.json'),
    outputs: join(dir, 'outputs'),
    kubeconfig: join(dir, 'kubeconfig'),
  };
}

export function scriptEnv(
  step: ScriptStep,
  ctx: StepContext,
  files: ScriptFiles,
  templateVars: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const v = process.env[name];
    if (v !== undefined) env[name] = v;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  Object.assign(env, {
    KUBECONFIG: files.kubeconfig,
    HOME: files.dir,
    TMPDIR: files.dir,
    FLOWOPS_RESOURCE: files.resource,
    FLOWOPS_CONTEXT: files.context,
    FLOWOPS_OUTPUTS: files.outputs,
    RESOURCE_NAME: ctx.resource.metadata.name ?? '',
    RESOURCE_NAMESPACE: ctx.resource.metadata.namespace ?? '',
    FLOW_NAME: ctx.flow.name,
  });
  for (const [stepName, { Outputs: outputs }] of Object.entries(ctx.data.Steps)) {
    for (const [key, value] of Object.entries(outputs)) {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      // Linux refuses to start a process with one env string over 128 KiB (E2BIG); a whole object
      // from a `get` step can be that big. It is still in $FLOWOPS_CONTEXT.
      if (text.length > MAX_ENV_VALUE) {
        ctx.log.debug(
          { step: step.name, output: `${stepName}.${key}` },
          'step output too large for an env variable; read it from FLOWOPS_CONTEXT',
        );
        continue;
      }
      env[`STEP_${envName(stepName)}_${envName(key)}`] = text;
    }
  }
  for (const [key, value] of Object.entries(step.env ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      throw invalid(`${step.name}.env: ${JSON.stringify(key)} is not a valid environment variable name`);
    env[key] = renderText(value, ctx.data, `${step.name}.env.${key}`);
  }
  // Last, so nothing can redirect the references the rewritten script relies on.
  Object.assign(env, templateVars);
  return env;
}

/**
 * `key=value` lines (value verbatim to the end of the line; numbers stay strings), and
 * GitHub-Actions-style `key<<DELIM` … `DELIM` blocks for multi-line values.
 */
export function parseOutputsFile(text: string): Outputs {
  const outputs: Outputs = {};
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim() || line.startsWith('#')) continue;
    const block = /^([^=<]+)<<(\S+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2] as string, i + 1);
      const stop = end === -1 ? lines.length : end;
      outputs[(block[1] as string).trim()] = lines.slice(i + 1, stop).join('\n');
      i = stop;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    if (key) outputs[key] = line.slice(eq + 1);
  }
  return outputs;
}
