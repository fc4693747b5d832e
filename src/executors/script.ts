// The script step: bash, sh or python3 in a fresh temp dir, values passed as environment
// variables (never spliced into the code), outputs from the FLOWOPS_OUTPUTS file.

import { readFile, stat, writeFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { join } from 'node:path';
import type { ScriptStep } from '../api/index.js';
import { Masker } from './mask.js';
import { tailLines } from './output-tail.js';
import { identityProxy, scriptKubeconfig } from './identity-proxy.js';
import { parseOutputsFile, scriptEnv, scriptFiles } from './script-env.js';
import { runInProcessGroup, type ProcessOutcome } from './script-process.js';
import { scriptSandbox } from './script-sandbox.js';
import { checkTaintedValues, interpreterFor, prepareScript } from './script-source.js';
import { withTempDir } from './temp-dir.js';
import { StepError, type StepContext, type StepExecutor, type StepResult } from './types.js';

const STDOUT_OUTPUT_LIMIT = 4096;
const OUTPUTS_LIMIT = 1024 * 1024;

function failure(step: ScriptStep, run: ProcessOutcome, masker: Masker, ctx: StepContext): StepError {
  const tail = masker.mask(tailLines(run.stderr));
  const suffix = tail ? `: ${tail}` : '';
  if (run.aborted) {
    const timedOut = ctx.signal.reason instanceof Error && ctx.signal.reason.name === 'TimeoutError';
    return new StepError(
      `${step.name}: script ${timedOut ? 'timed out' : 'cancelled'}; its process group was killed${suffix}`,
      { reason: 'Timeout' },
    );
  }
  // A signal death reads as a shell would report it (128 + signal number).
  const code = run.exitCode ?? 128 + signalNumber(run.signal);
  const how = run.exitCode === null ? `was killed by ${run.signal ?? 'a signal'}` : `exited with code ${code}`;
  return new StepError(`${step.name}: script ${how}${suffix}`, { reason: 'ScriptFailed', exitCode: code });
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal ? constants.signals[signal] : 0;
}

async function run(step: ScriptStep, ctx: StepContext): Promise<StepResult> {
  const interpreter = interpreterFor(step);
  const prepared = prepareScript(step, interpreter, ctx.data);
  return withTempDir('script', async (dir) => {
    const files = scriptFiles(dir);
    const env = scriptEnv(step, ctx, files, prepared.vars);
    checkTaintedValues(step, prepared, env);
    const masker = new Masker();
    masker.addEnv(env);
    const scriptPath = join(dir, interpreter.file);
    await writeFile(scriptPath, prepared.text, { mode: 0o700 });
    await writeFile(files.resource, JSON.stringify(ctx.resource));
    await writeFile(files.context, JSON.stringify(ctx.data));
    await writeFile(files.outputs, '');
    // The cluster as the Flow's identity, through the loopback proxy, for this run only.
    const credentials = await identityProxy.issue(ctx.kube);
    await writeFile(
      files.kubeconfig,
      scriptKubeconfig(credentials, ctx.resource.metadata.namespace ?? ctx.flow.namespace ?? 'default'),
      { mode: 0o600 },
    );
    await scriptSandbox.handOver(dir, [scriptPath, files.resource, files.context, files.outputs, files.kubeconfig]);
    const launch = await scriptSandbox.wrap(interpreter.command, [scriptPath], dir);
    if (launch.warning) ctx.log.warn({ step: step.name }, launch.warning);
    ctx.log.debug({ step: step.name, interpreter: interpreter.command, sandbox: launch.level }, 'running script');
    let result: ProcessOutcome;
    try {
      result = await runInProcessGroup(launch.command, launch.args, {
        cwd: dir,
        env,
        signal: ctx.signal,
        stdoutLimit: 64 * 1024,
        stderrLimit: 16 * 1024,
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new StepError(`${step.name}: cannot start ${interpreter.command}: ${message}`, {
        reason: 'ScriptFailed',
        cause: err,
      });
    } finally {
      credentials.revoke();
    }
    if (result.aborted || result.exitCode !== 0) throw failure(step, result, masker, ctx);
    const outputs = parseOutputsFile(await readOutputsFile(step, files.outputs));
    for (const [k, v] of Object.entries(outputs)) outputs[k] = masker.maskDeep(v);
    return {
      outputs: { ...outputs, exitCode: 0, stdout: masker.mask(result.stdout.trim()).slice(0, STDOUT_OUTPUT_LIMIT) },
    };
  });
}

/** FLOWOPS_OUTPUTS is the script's to write: more than OUTPUTS_LIMIT is refused, not read into memory. */
async function readOutputsFile(step: ScriptStep, path: string): Promise<string> {
  const { size } = await stat(path);
  if (size > OUTPUTS_LIMIT)
    throw new StepError(
      `${step.name}: the script wrote ${size} bytes to $FLOWOPS_OUTPUTS; at most ${OUTPUTS_LIMIT} (1 MiB) are read`,
      { reason: 'OutputTooLarge', permanent: true },
    );
  return readFile(path, 'utf8');
}

export const scriptExecutor: StepExecutor<ScriptStep> = { type: 'script', run };
