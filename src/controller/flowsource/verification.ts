import type { FlowSourceSpec, FlowSourceStatus } from '../../api/index.js';
import { type KubeClient, setCondition, type Condition } from '../../kube/index.js';
import {
  SourceError,
  type GitContext,
  trustedKeysFromSecretData,
  verifyRevision,
  type VerifyRevisionOutcome,
} from '../../source/index.js';
import { withHistory, withReady } from './status.js';

/**
 * spec.verify for one revision: the trusted keys from the Secret it names, then the signature of the
 * commit (or tag) and, in mode all, of every commit since status.lastVerifiedCommit. A Secret that is
 * missing or holds no usable key is a SourceError (Ready=False, Stalled), as a bad secretRef is.
 */
export async function verifySourceRevision(opts: {
  kube: KubeClient;
  namespace: string;
  spec: FlowSourceSpec;
  ctx: GitContext;
  commit: string;
  status: FlowSourceStatus;
}): Promise<VerifyRevisionOutcome | undefined> {
  const verify = opts.spec.verify;
  if (!verify) return undefined;
  const where = `Secret ${opts.namespace}/${verify.secretRef.name} (spec.verify.secretRef)`;
  const secret = await opts.kube.get({
    apiVersion: 'v1',
    kind: 'Secret',
    namespace: opts.namespace,
    name: verify.secretRef.name,
  });
  if (!secret)
    throw new SourceError(
      'VerifyKeysInvalid',
      `${where} not found: nothing is applied until it holds the trusted keys`,
    );
  const keys = await trustedKeysFromSecretData(secret.data as Record<string, string> | undefined);
  if (!keys.ok) throw new SourceError('VerifyKeysInvalid', `${where}: ${keys.problems.slice(0, 5).join('; ')}`);
  const ref = opts.spec.ref ?? {};
  return verifyRevision({
    ctx: opts.ctx,
    commit: opts.commit,
    tag: ref.tag && !ref.branch && !ref.commit ? ref.tag : undefined,
    mode: verify.mode ?? 'head',
    lastVerified: opts.status.lastVerifiedCommit,
    keys: keys.keys,
  });
}

/** Flux's SourceVerified condition beside Ready, so that a view can show the verification state alone. */
export function withVerified(
  status: FlowSourceStatus,
  generation: number,
  outcome: VerifyRevisionOutcome,
  commit: string,
): FlowSourceStatus {
  const condition: Omit<Condition, 'lastTransitionTime'> = outcome.ok
    ? {
        type: 'SourceVerified',
        status: 'True',
        reason: 'Succeeded',
        message: `commit ${commit} verified: signed by ${outcome.signer}`,
        observedGeneration: generation,
      }
    : {
        type: 'SourceVerified',
        status: 'False',
        reason: outcome.code,
        message: outcome.message,
        observedGeneration: generation,
      };
  const conditions = setCondition(status.conditions as Condition[] | undefined, condition);
  return { ...status, conditions, ...(outcome.ok ? { lastVerifiedCommit: commit } : {}) };
}

/**
 * A refused revision: nothing applied, lastAppliedRevision (the last verified commit) keeps running;
 * Ready=False names the commit and its signer, and history lists it as Refused.
 */
export function refusedStatus(
  status: FlowSourceStatus,
  generation: number,
  revision: string,
  outcome: Extract<VerifyRevisionOutcome, { ok: false }>,
): FlowSourceStatus {
  const history = withHistory(status.history, {
    revision,
    outcome: 'Refused',
    message: outcome.message.slice(0, 1000),
    signer: outcome.signer,
  });
  const verified = withVerified(
    { ...status, lastAttemptedRevision: revision, history },
    generation,
    outcome,
    outcome.commit,
  );
  return withReady(verified, generation, false, 'VerificationFailed', outcome.message.slice(0, 4000), true);
}

/** The same refusal as last time (same revision, same reason, same spec): no new status write or Event. */
export function isRepeatedRefusal(
  status: FlowSourceStatus,
  generation: number,
  revision: string,
  outcome: VerifyRevisionOutcome,
): boolean {
  const last = status.history?.[0];
  return (
    !outcome.ok &&
    status.observedGeneration === generation &&
    last?.revision === revision &&
    last.outcome === 'Refused' &&
    last.message === outcome.message.slice(0, 1000)
  );
}
