// A template step's chart from a repository ({repository, name, version}): credentials and CA
// from Secrets, the version rendered, the archive pulled and checked by src/charts/. What was
// pulled (version, digest) becomes the step's `chart` output, so a run says what it rendered.

import type { Key } from 'openpgp';
import type { ChartRef } from '../api/index.js';
import {
  ChartError,
  defaultChartPuller,
  isVersionConstraint,
  repositoryKind,
  type BasicCredentials,
  type PulledChart,
  keyringFromSecret,
} from '../charts/index.js';
import { SourceError, credentialsFor, parseOciUrl } from '../source/index.js';
import { renderText } from './render.js';
import { readSecretData } from './secret-values.js';
import { invalid } from './step-errors.js';
import { StepError, type Outputs, type StepContext } from './types.js';

/** The host:port a docker config's `auths` would name for this repository. */
function registryHost(ref: ChartRef): string {
  if (repositoryKind(ref.repository) === 'oci')
    return parseOciUrl(`${ref.repository.replace(/\/+$/, '')}/${ref.name}`, 'chart.repository').registry;
  return new URL(ref.repository).host;
}

/**
 * username + password (Flux's HelmRepository Secret), or a kubernetes.io/dockerconfigjson Secret's
 * entry for the registry (read by the OCI source's own docker-config reader).
 */
async function credentials(ref: ChartRef, ctx: StepContext, field: string): Promise<BasicCredentials | undefined> {
  if (!ref.secretRef) return undefined;
  const { where, data } = await readSecretData(ref.secretRef.name, ctx);
  const config = data.get('.dockerconfigjson');
  if (config !== undefined) {
    const creds = credentialsFor(config, registryHost(ref), `${where} (${field}.secretRef)`);
    if (!creds)
      throw new StepError(`${where} (${field}.secretRef) has no auths entry for ${registryHost(ref)}`, {
        reason: 'ChartAuthRequired',
      });
    return creds;
  }
  const username = data.get('username');
  const password = data.get('password');
  if (username === undefined || password === undefined) {
    throw new StepError(`${where} (${field}.secretRef) needs username and password, or .dockerconfigjson`, {
      reason: 'ChartAuthRequired',
    });
  }
  return { username, password };
}

async function caBundle(ref: ChartRef, ctx: StepContext, field: string): Promise<string | undefined> {
  if (!ref.certSecretRef) return undefined;
  const { where, data } = await readSecretData(ref.certSecretRef.name, ctx);
  const ca = data.get('ca.crt');
  if (ca === undefined)
    throw new StepError(`${where} (${field}.certSecretRef) has no key "ca.crt"`, {
      reason: 'ChartRefInvalid',
      permanent: true,
    });
  return ca;
}

/** chart.verify's keyring, read from its Secret. */
async function verifyKeys(ref: ChartRef, ctx: StepContext, field: string): Promise<{ keys: Key[] } | undefined> {
  if (!ref.verify) return undefined;
  const { where, data } = await readSecretData(ref.verify.secretRef.name, ctx);
  return { keys: await keyringFromSecret(data, `${where} (${field}.verify.secretRef)`) };
}

/** Pulls the chart the step names; its archive path is what `helm template` is given. */
export async function pullStepChart(ref: ChartRef, ctx: StepContext, field: string): Promise<PulledChart> {
  const version = renderText(ref.version, ctx.data, `${field}.version`).trim();
  if (!isVersionConstraint(version)) {
    throw invalid(
      `${field}.version: rendered ${JSON.stringify(version)}, not an exact version or a semver range`,
      'ChartRefInvalid',
    );
  }
  try {
    const creds = await credentials(ref, ctx, field);
    const ca = await caBundle(ref, ctx, field);
    const verify = await verifyKeys(ref, ctx, field);
    const puller = ctx.charts ?? defaultChartPuller();
    const chart = await puller.pull({
      repository: ref.repository,
      name: ref.name,
      version,
      credentials: creds,
      ca,
      insecure: ref.insecure,
      verify,
      signal: ctx.signal,
    });
    ctx.log.info(
      {
        step: field,
        repository: chart.repository,
        chart: chart.name,
        version: chart.version,
        digest: chart.digest,
        cached: chart.cached,
        ...(chart.signer === undefined ? {} : { signer: chart.signer }),
      },
      'chart pulled',
    );
    return chart;
  } catch (e) {
    if (e instanceof ChartError) {
      // A rendered version that is no range, or a repository FlowOps cannot use, no retry fixes.
      throw new StepError(`${field}: ${e.message}`, {
        reason: e.code,
        permanent: e.code === 'ChartRefInvalid',
        cause: e,
      });
    }
    if (e instanceof SourceError) {
      // parseOciUrl's ArtifactInvalid is a repository URL no request can use; the rest is a docker config's.
      const invalidRef = e.code === 'ArtifactInvalid';
      throw new StepError(`${field}: ${e.message}`, {
        reason: invalidRef ? 'ChartRefInvalid' : 'ChartAuthRequired',
        permanent: invalidRef,
        cause: e,
      });
    }
    throw e;
  }
}

/** The step's `chart` output: what was rendered. */
export function chartOutputs(chart: PulledChart): Outputs {
  const { repository, name, version, digest, signer } = chart;
  return { chart: { repository, name, version, digest, ...(signer === undefined ? {} : { signer }) } };
}
