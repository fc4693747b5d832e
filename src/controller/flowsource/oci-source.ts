import type { FlowSourceSpec, FlowSourceStatus, OciSourceSpec } from '../../api/index.js';
import type { KubeClient, EventRecorder, KubeObject } from '../../kube/index.js';
import type { Logger } from '../../log/index.js';
import {
  SourceError,
  artifactDefinitions,
  cosignKeysFromSecretData,
  verifyCosign,
  credentialsFor,
  type RegistryCredentials,
  type PackedFile,
  pullFiles,
  resolveArtifact,
  type ResolvedArtifact,
  parseOciUrl,
  type OciReference,
} from '../../source/index.js';
import { syncCommit, type SyncOutcome } from '../../sync/sync-commit.js';
import { decryptionKeys } from './credentials.js';
import { statusOf, statusAfterSync, withReady, type SourceEvent } from './status.js';

export interface OciSourceDeps {
  kube: KubeClient;
  /** The source's ServiceAccount (impersonated) or FlowOps itself: what applies and prunes. */
  applier: KubeClient;
  log: Logger;
  events: EventRecorder;
  fieldManager: string;
}

/**
 * What one reconcile decided, for the FlowSource reconciler's summary to write once: the status,
 * the Events to record after it, and for the queue `retry` (applying failed: back off) or
 * `fetchFailed` (the registry or the artifact refused: poll again at the interval).
 */
export interface OciReconcileResult {
  status: FlowSourceStatus;
  events: SourceEvent[];
  retry?: string;
  fetchFailed?: string;
}

const STALLED: ReadonlySet<string> = new Set(['AuthFailed', 'AuthRequired', 'DecryptionKeysInvalid']);

/**
 * One reconcile of a FlowSource with spec.oci: resolve the tag, range or digest to a manifest,
 * pull and check its layer, then validate and apply its definitions as a unit exactly as a Git
 * commit's (src/sync/), with the artifact's digest as the revision and the Git revision it was
 * pushed from as the origin. A fetch that fails (401, a digest that does not match, a truncated
 * layer) applies nothing: Ready=False names why and the last applied artifact stays. The applied
 * artifact's files are kept in memory to correct drift each interval without pulling again.
 */
export class OciSources {
  private readonly applied = new Map<string, { digest: string; files: PackedFile[] }>();

  forget(key: string): void {
    this.applied.delete(key);
  }

  async reconcile(
    deps: OciSourceDeps,
    src: KubeObject,
    spec: FlowSourceSpec,
    oci: OciSourceSpec,
    current: FlowSourceStatus,
  ): Promise<OciReconcileResult> {
    const namespace = src.metadata.namespace ?? 'default';
    const key = `${namespace}/${src.metadata.name}`;
    const generation = src.metadata.generation ?? 0;
    const status = current;
    try {
      const ref = parseOciUrl(oci.url, 'spec.oci.url');
      const credentials = await registryCredentials(deps.kube, namespace, oci, ref);
      const artifact = await resolveArtifact({
        ref,
        selector: oci.ref ?? {},
        where: 'spec.oci',
        credentials,
        insecure: oci.insecure,
      });
      // Checked on every reconcile before anything is applied or re-applied: a signature removed
      // or a key no longer trusted stops even the drift correction of the artifact.
      if (oci.verify) await verifyArtifact(deps.kube, namespace, oci, artifact);
      const upToDate =
        status.observedGeneration === generation &&
        status.lastAttemptedRevision === artifact.revision &&
        status.history?.[0]?.revision === artifact.revision &&
        status.history[0].outcome !== 'Failed';
      if (upToDate) {
        // A rejected artifact stays rejected until a new digest or spec; an applied one is re-applied.
        if (status.lastAppliedRevision === artifact.revision) await this.correctDrift(deps, src, spec, artifact);
        return { status, events: [] };
      }
      const files = await pullFiles(artifact);
      const outcome = await this.sync(deps, key, spec, artifact, files, status);
      if (outcome.outcome === 'Applied') this.applied.set(key, { digest: artifact.digest, files });
      const next = summarise(status, generation, artifact, outcome);
      const events = [record(deps, src, outcome, artifact)];
      return { status: next, events, ...(outcome.outcome === 'Failed' ? { retry: outcome.message } : {}) };
    } catch (e) {
      if (!(e instanceof SourceError)) throw e;
      deps.log.warn({ source: key, code: e.code, err: e.message }, 'OCI artifact not fetched; the last applied stays');
      return {
        status: withReady(status, generation, false, e.code, e.message, STALLED.has(e.code)),
        events: [{ type: 'Warning', reason: e.code, message: e.message }],
        fetchFailed: e.code,
      };
    }
  }

  private async sync(
    deps: OciSourceDeps,
    key: string,
    spec: FlowSourceSpec,
    artifact: ResolvedArtifact,
    files: readonly PackedFile[],
    status: FlowSourceStatus,
  ): Promise<SyncOutcome> {
    const namespace = key.split('/')[0] ?? 'default';
    return syncCommit({
      kube: deps.applier,
      fieldManager: deps.fieldManager,
      source: key,
      revision: artifact.revision,
      origin: artifact.origin,
      files: artifactDefinitions(files, pathPrefix(spec)),
      removed: [],
      full: true,
      inventory: status.inventory ?? [],
      defaultNamespace: namespace,
      decryption: await decryptionKeys(deps.kube, namespace, spec),
    });
  }

  /** Nothing new in the registry: the applied artifact again, so hand edits are reverted (as for Git). */
  private async correctDrift(
    deps: OciSourceDeps,
    src: KubeObject,
    spec: FlowSourceSpec,
    artifact: ResolvedArtifact,
  ): Promise<void> {
    const key = `${src.metadata.namespace ?? 'default'}/${src.metadata.name}`;
    let files = this.applied.get(key)?.digest === artifact.digest ? this.applied.get(key)?.files : undefined;
    if (!files) {
      files = await pullFiles(artifact);
      this.applied.set(key, { digest: artifact.digest, files });
    }
    const outcome = await this.sync(deps, key, spec, artifact, files, statusOf(src));
    if (outcome.outcome === 'Applied') return;
    deps.log.warn(
      { source: key, revision: artifact.revision, outcome: outcome.outcome, err: outcome.message },
      'drift correction failed',
    );
    await deps.events.record(src, 'Warning', 'DriftCorrectionFailed', `${artifact.revision}: ${outcome.message}`);
  }
}

/** spec.oci.verify: the artifact's cosign signature by a key of the Secret. */
async function verifyArtifact(
  kube: KubeClient,
  namespace: string,
  oci: OciSourceSpec,
  artifact: ResolvedArtifact,
): Promise<void> {
  const name = oci.url.replace(/^oci:\/\//, '');
  if (!oci.verify?.secretRef) {
    throw new SourceError(
      'VerifyKeysInvalid',
      'spec.oci.verify: keyless cosign verification (Fulcio certificates, Rekor) cannot be checked offline and ' +
        'is not supported; name a Secret with the cosign public key in spec.oci.verify.secretRef',
    );
  }
  const where = `Secret ${namespace}/${oci.verify.secretRef.name} (spec.oci.verify.secretRef)`;
  const secret = await kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: oci.verify.secretRef.name });
  if (!secret) throw new SourceError('VerifyKeysInvalid', `${where} not found`);
  const keys = cosignKeysFromSecretData(secret.data as Record<string, string> | undefined, where);
  await verifyCosign(artifact.client, name, artifact.digest, keys);
}

/** The credentials for the registry from spec.oci.secretRef, a kubernetes.io/dockerconfigjson Secret. */
async function registryCredentials(
  kube: KubeClient,
  namespace: string,
  oci: OciSourceSpec,
  ref: OciReference,
): Promise<RegistryCredentials | undefined> {
  if (!oci.secretRef) return undefined;
  const where = `Secret ${namespace}/${oci.secretRef.name} (spec.oci.secretRef)`;
  const secret = await kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: oci.secretRef.name });
  if (!secret) throw new SourceError('AuthRequired', `${where} not found`);
  const data = (secret.data ?? {}) as Record<string, string>;
  const config = data['.dockerconfigjson'];
  if (!config)
    throw new SourceError(
      'AuthRequired',
      `${where} has no .dockerconfigjson key (expected type kubernetes.io/dockerconfigjson)`,
    );
  const creds = credentialsFor(Buffer.from(config, 'base64').toString('utf8'), ref.registry, where);
  if (!creds) throw new SourceError('AuthRequired', `${where} has no auths entry for ${ref.registry}`);
  return creds;
}

const pathPrefix = (spec: FlowSourceSpec): string =>
  (spec.path ?? '')
    .split('/')
    .filter((s) => s && s !== '.')
    .join('/');

function summarise(
  status: FlowSourceStatus,
  generation: number,
  artifact: ResolvedArtifact,
  outcome: SyncOutcome,
): FlowSourceStatus {
  const revision = artifact.revision;
  const entry = {
    revision,
    outcome: outcome.outcome,
    message: outcome.message.slice(0, 1000),
    ...(artifact.origin ? { origin: artifact.origin } : {}),
  };
  const from = artifact.origin ? ` (from ${artifact.origin})` : '';
  return statusAfterSync(status, generation, entry, outcome, `Applied revision ${revision}${from}: ${outcome.message}`);
}

/** Logs the outcome and says the Event the summary records for it. */
function record(deps: OciSourceDeps, src: KubeObject, outcome: SyncOutcome, artifact: ResolvedArtifact): SourceEvent {
  const log = deps.log.child({ source: `${src.metadata.namespace}/${src.metadata.name}`, revision: artifact.revision });
  if (outcome.outcome === 'Applied')
    log.info({ applied: outcome.applied, pruned: outcome.pruned, origin: artifact.origin }, 'artifact applied');
  else log.warn({ outcome: outcome.outcome, err: outcome.message }, 'artifact not applied');
  const reason =
    outcome.outcome === 'Applied' ? 'Applied' : outcome.outcome === 'Rejected' ? 'ValidationFailed' : 'ApplyFailed';
  const type = outcome.outcome === 'Applied' ? 'Normal' : 'Warning';
  return { type, reason, message: `${artifact.revision}: ${outcome.message}` };
}
