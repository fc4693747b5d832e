// Builds a StepContext for executor tests: a real KubeClient, a real pino logger (silent, or
// captured into memory so tests can assert what was logged) and a deadline signal.

import { Writable } from 'node:stream';
import pino from 'pino';
import type { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import type { Logger } from '../../src/log/index.js';
import { FIELD_MANAGER, type Outputs, type StepContext } from '../../src/executors/types.js';

export interface ContextOptions {
  kube: KubeClient;
  resource: KubeObject;
  steps?: Record<string, Outputs>;
  signal?: AbortSignal;
  timeoutMs?: number;
  sourceDir?: string;
  log?: Logger;
  flowName?: string;
}

export function makeContext(opts: ContextOptions): StepContext {
  const flowName = opts.flowName ?? 'test-flow';
  const steps: Record<string, { Outputs: Outputs }> = {};
  for (const [name, outputs] of Object.entries(opts.steps ?? {})) steps[name] = { Outputs: outputs };
  const ctx: StepContext = {
    flow: { name: flowName },
    resource: opts.resource,
    data: { Resource: opts.resource, Steps: steps, Now: new Date().toISOString(), Flow: { name: flowName } },
    kube: opts.kube,
    signal: opts.signal ?? AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    log: opts.log ?? pino({ level: 'silent' }),
    fieldManager: FIELD_MANAGER,
  };
  if (opts.sourceDir !== undefined) ctx.sourceDir = opts.sourceDir;
  return ctx;
}

/** A logger at the most verbose level whose JSON lines are kept in memory. */
export function capturingLogger(): { log: Logger; text: () => string } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { log: pino({ level: 'trace' }, sink), text: () => lines.join('') };
}

/** Runs `fn` and returns what it threw (failing the test when it does not throw). */
export async function failure(fn: () => Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await fn();
  } catch (err) {
    return err as Error & Record<string, unknown>;
  }
  throw new Error('expected a failure, but the call succeeded');
}
