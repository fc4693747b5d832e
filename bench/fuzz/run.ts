// Sends every case to both servers and compares what each answered, step by step.
import { send, type Answer, type Target } from '../../test/fidelity/http-target.js';
import type { JsonObject } from '../../src/apiserver/registry/types.js';
import type { FuzzCase } from './cases.js';
import { signature } from './compare.js';

export interface CaseResult {
  fuzzCase: FuzzCase;
  real: string[];
  embedded: string[];
  same: boolean;
}

const TIMEOUT_MS = 30_000;

const CONFLICT_RETRIES = 3;

/** 409 Conflict: the object moved since it was read (the real server's own controllers write some). */
const isConflict = (a: Answer): boolean => a.status === 409 && a.body.includes('"reason":"Conflict"');

/**
 * Each step's signature until the first that is refused (a later step would act on nothing). An edit
 * that meets a Conflict reads the object again and is made once more, as a client's retry-on-conflict
 * does: kube-apiserver's APF and aggregator controllers write FlowSchema and APIService status at once.
 */
async function runOn(target: Target, c: FuzzCase): Promise<string[]> {
  const seen: string[] = [];
  let previous = '';
  for (const step of c.steps) {
    const headers = {
      'Content-Type': step.contentType,
      Accept: 'application/json',
      'User-Agent': 'fidelity-fuzz/v0.0.0',
    };
    try {
      let a: Answer | undefined;
      for (let attempt = 0; attempt <= CONFLICT_RETRIES && (!a || (step.edit && isConflict(a))); attempt++) {
        if (a) previous = (await get(target, step.path.replace(/\/status$/, ''))).body;
        let body = step.body;
        if (step.edit) {
          const stored = JSON.parse(previous) as JsonObject;
          step.edit(stored);
          body = JSON.stringify(stored);
        }
        a = await send(target, { method: step.method, path: step.path, headers, body, timeoutMs: TIMEOUT_MS });
      }
      if (!a) break;
      seen.push(signature(a));
      previous = a.body;
      if (a.status >= 300) break;
    } catch (e) {
      seen.push(`no answer: ${e instanceof Error ? e.message : String(e)}`);
      break;
    }
  }
  return seen;
}

function get(target: Target, path: string): Promise<Answer> {
  return send(target, { method: 'GET', path, headers: { Accept: 'application/json' }, timeoutMs: TIMEOUT_MS });
}

export async function runCases(cases: FuzzCase[], real: Target, embedded: Target, parallel = 8): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array<CaseResult>(cases.length);
  let next = 0;
  let done = 0;
  const started = Date.now();
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const i = next++;
      const c = cases[i]!;
      const [r, e] = await Promise.all([runOn(real, c), runOn(embedded, c)]);
      results[i] = { fuzzCase: c, real: r, embedded: e, same: r.join(' | ') === e.join(' | ') };
      if (++done % 250 === 0)
        process.stderr.write(`fuzz: ${done}/${cases.length} cases in ${Math.round((Date.now() - started) / 1000)} s\n`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}

async function post(target: Target, path: string, obj: object): Promise<void> {
  const headers = { 'Content-Type': 'application/json' };
  const a = await send(target, { method: 'POST', path, headers, body: JSON.stringify(obj), timeoutMs: TIMEOUT_MS });
  if (a.status !== 201) throw new Error(`${target.name}: POST ${path} answered ${a.status}: ${a.body}`);
}

/**
 * The cases' namespace with its `default` ServiceAccount, which kube-controller-manager would make
 * (the real server runs without it): without it, kube-apiserver's ServiceAccount admission refuses every Pod.
 */
export async function createNamespace(target: Target, ns: string): Promise<void> {
  await post(target, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await post(target, `/api/v1/namespaces/${ns}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'default' },
  });
}
