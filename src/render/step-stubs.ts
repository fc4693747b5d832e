// Script and http steps reach outside the render (a shell, the network), so `flowops render` runs
// them only when told to (--allow-scripts, --allow-http) and otherwise takes their outputs from a
// stub file, the way a unit test fakes I/O:
//
//   classify: { priority: P1 }            # step "classify" of any Flow
//   webhook-notifier/notify: { id: T-1 }  # step "notify" of Flow webhook-notifier only (wins)
//
// The stubs are installed as the executors of those two step types, so the engine runs exactly
// as it does in a cluster: only the step's outputs come from the file.

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { FlowSpec, HttpStep, ScriptStep } from '../api/index.js';
import {
  httpExecutor,
  registerExecutor,
  scriptExecutor,
  StepError,
  type OutputValue,
  type Outputs,
  type StepContext,
  type StepExecutor,
} from '../executors/index.js';
import { SetupError } from '../util/setup-error.js';

export type StubbedType = 'script' | 'http';

export interface StubPolicy {
  allowScripts: boolean;
  allowHttp: boolean;
}

export class StepStubs {
  private constructor(private readonly byKey: ReadonlyMap<string, Outputs>) {}

  static none(): StepStubs {
    return new StepStubs(new Map());
  }

  /** Reads a stub file; a malformed one is a SetupError naming the file and the key. */
  static fromFile(file: string): StepStubs {
    let doc: unknown;
    try {
      doc = parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new SetupError(`--stub ${file}: ${(e as Error).message.split('\n')[0]}`);
    }
    if (doc === null || doc === undefined) return StepStubs.none();
    if (!isMap(doc))
      throw new SetupError(`--stub ${file}: expected a mapping of step name (or flow/step) to its outputs`);
    const byKey = new Map<string, Outputs>();
    for (const [key, outputs] of Object.entries(doc)) {
      if (!isMap(outputs))
        throw new SetupError(
          `--stub ${file}: ${key}: expected a mapping of output name to value, e.g. "${key}: { id: T-1 }"`,
        );
      byKey.set(key, outputs as Outputs);
    }
    return new StepStubs(byKey);
  }

  /** The outputs for step `step` of Flow `flow`: a flow/step entry first, then a step entry. */
  outputsFor(flow: string, step: string): Outputs | undefined {
    return this.byKey.get(`${flow}/${step}`) ?? this.byKey.get(step);
  }
}

function isMap(v: unknown): v is Record<string, OutputValue> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const allowed = (type: StubbedType, policy: StubPolicy): boolean =>
  type === 'script' ? policy.allowScripts : policy.allowHttp;
const allowFlag = (type: StubbedType): string => (type === 'script' ? '--allow-scripts' : '--allow-http');

/** Reconcile steps that neither may run nor have a stub, as one line each; checked before anything starts. */
export function missingStubs(
  flows: ReadonlyArray<{ name: string; spec: FlowSpec }>,
  stubs: StepStubs,
  policy: StubPolicy,
): string[] {
  const out: string[] = [];
  for (const flow of flows) {
    for (const step of flow.spec.reconcile?.steps ?? []) {
      if (step.type !== 'script' && step.type !== 'http') continue;
      if (allowed(step.type, policy) || stubs.outputsFor(flow.name, step.name)) continue;
      out.push(
        `Flow ${flow.name}: step "${step.name}" (${step.type}) has no stub: add "${step.name}:" or "${flow.name}/${step.name}:" with its outputs to the --stub file, or pass ${allowFlag(step.type)}`,
      );
    }
  }
  return out;
}

function stubbed<S extends ScriptStep | HttpStep>(
  real: StepExecutor<S>,
  type: StubbedType,
  stubs: StepStubs,
  policy: StubPolicy,
): StepExecutor<S> {
  return {
    type: real.type,
    run: async (step: S, ctx: StepContext) => {
      if (allowed(type, policy)) return real.run(step, ctx);
      const outputs = stubs.outputsFor(ctx.flow.name, step.name);
      // Reached for onError steps, which the check before the start does not cover.
      if (!outputs)
        throw new StepError(
          `Flow ${ctx.flow.name}: step "${step.name}" (${type}) has no stub and ${allowFlag(type)} was not given`,
          { reason: 'NoStub', permanent: true },
        );
      return { outputs: structuredClone(outputs) };
    },
  };
}

/** Installs the stubbing executors for script and http steps in this process. */
export function installStubs(stubs: StepStubs, policy: StubPolicy): void {
  registerExecutor<'script'>({ ...stubbed(scriptExecutor, 'script', stubs, policy), type: 'script' });
  registerExecutor<'http'>({ ...stubbed(httpExecutor, 'http', stubs, policy), type: 'http' });
}
