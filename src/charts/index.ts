// Helm charts from chart repositories: an HTTP repository's index.yaml or an OCI registry, a
// version constraint resolved to the highest match, the .tgz checked against its digest and kept
// on disk by digest. The template step (src/executors/template.ts) renders what this returns.

import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Key } from 'openpgp';
import { ChartCache, defaultCacheDir, DEFAULT_CACHE_BYTES } from './cache.js';
import { ChartError } from './errors.js';
import type { BasicCredentials } from './http-get.js';
import { fetchHttpChart, fetchHttpProvenance, resolveHttpChart, shownRepository } from './http-repository.js';
import { fetchOciChart, fetchOciProvenance, resolveOciChart } from './oci-repository.js';
import { verifyProvenance } from './provenance.js';

export { ChartError, type ChartErrorCode } from './errors.js';
export type { BasicCredentials } from './http-get.js';
export { isVersionConstraint, highestMatch } from './versions.js';
export { parseIndex, resolveEntry, type IndexEntry } from './http-index.js';
export { ChartCache, defaultCacheDir } from './cache.js';

export interface ChartRequest {
  /** https://… or http://… (index.yaml beside it), or oci://registry/path. */
  repository: string;
  name: string;
  /** An exact version or a semver range. */
  version: string;
  credentials?: BasicCredentials | undefined;
  /** PEM CA bundle for the repository's TLS certificate. */
  ca?: string | undefined;
  /** OCI only: plain HTTP to the registry. */
  insecure?: boolean | undefined;
  /**
   * Require a provenance file signed by one of these OpenPGP keys that vouches for the archive's
   * digest (`helm pull --verify --keyring`); without it, no provenance is read.
   */
  verify?: { keys: Key[] } | undefined;
  signal?: AbortSignal | undefined;
}

/** What a run rendered: recorded in the step's outputs. */
export interface PulledChart {
  /** The .tgz on disk, which `helm template` reads as it reads a chart directory. */
  path: string;
  repository: string;
  name: string;
  version: string;
  /** sha256:<hex> of the .tgz (the OCI layer digest, or index.yaml's digest). */
  digest: string;
  /** True when the archive came from the disk cache, not the network. */
  cached: boolean;
  /** With verify: who signed the provenance (OpenPGP fingerprint and user id). */
  signer?: string;
}

export type RepositoryKind = 'http' | 'oci';

/** Which kind of repository a URL names, by scheme; undefined for any other. */
export function repositoryKind(url: string): RepositoryKind | undefined {
  if (/^oci:\/\//.test(url)) return 'oci';
  if (/^https?:\/\//.test(url)) return 'http';
  return undefined;
}

export interface ChartPullerOptions {
  cacheDir?: string;
  maxCacheBytes?: number;
  /**
   * How long a resolution (constraint → version and digest) is reused without asking the
   * repository again, as Flux's HelmRepository interval and `helm repo update` bound staleness.
   */
  resolveTtlMs?: number;
}

interface Resolution {
  version: string;
  digest: string;
  fetch: () => Promise<Uint8Array>;
  /** The provenance text and the archive file name it must list. */
  provenance: () => Promise<{ text: string; file: string }>;
}

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

export class ChartPuller {
  readonly cache: ChartCache;
  private readonly resolved: LRUCache<string, { version: string; digest: string; signer: string | undefined }>;

  constructor(opts: ChartPullerOptions = {}) {
    this.cache = new ChartCache(opts.cacheDir ?? defaultCacheDir(), opts.maxCacheBytes ?? DEFAULT_CACHE_BYTES);
    this.resolved = new LRUCache({ max: 1000, ttl: Math.max(1, opts.resolveTtlMs ?? 60_000) });
  }

  /**
   * Resolves, then reads the archive from the disk cache or the repository. Bytes from the
   * network are refused unless they hash to the resolved digest.
   */
  async pull(req: ChartRequest): Promise<PulledChart> {
    const kind = repositoryKind(req.repository);
    if (!kind)
      throw new ChartError(
        'ChartRefInvalid',
        `chart.repository "${shownRepository(req.repository)}" is not https://, http:// or oci://`,
      );
    // A password in the URL would reach error messages (fetch quotes the URL it refuses).
    if (/^[a-z]+:\/\/[^/]*@/.test(req.repository)) {
      throw new ChartError('ChartRefInvalid', 'chart.repository must not hold credentials; name a Secret in secretRef');
    }
    const key = this.keyOf(req);
    const memo = this.resolved.get(key);
    const shown = kind === 'oci' ? req.repository : shownRepository(req.repository);
    const out = (
      version: string,
      digest: string,
      path: string,
      cached: boolean,
      signer: string | undefined,
    ): PulledChart => ({
      path,
      repository: shown,
      name: req.name,
      version,
      digest,
      cached,
      ...(signer === undefined ? {} : { signer }),
    });
    // The key holds the keyring's fingerprints: a memo says "verified with these keys".
    if (memo) {
      const hit = await this.cache.get(memo.digest);
      if (hit) return out(memo.version, memo.digest, hit.path, true, memo.signer);
    }
    const resolution = kind === 'oci' ? await this.resolveOci(req) : await this.resolveHttp(req);
    // The provenance binds the digest, so it is checked before any archive is read or fetched:
    // an archive that then hashes to that digest is the one that was signed.
    const signer = req.verify ? await this.verified(req, resolution, shown) : undefined;
    this.resolved.set(key, { version: resolution.version, digest: resolution.digest, signer });
    const hit = await this.cache.get(resolution.digest);
    if (hit) return out(resolution.version, resolution.digest, hit.path, true, signer);
    const bytes = await resolution.fetch();
    const actual = sha256(bytes);
    if (actual !== resolution.digest) {
      throw new ChartError(
        'ChartDigestMismatch',
        `${shown}: ${req.name} ${resolution.version} hashes to ${actual}, not ${resolution.digest}; refused`,
      );
    }
    const stored = await this.cache.put(resolution.digest, bytes);
    return out(resolution.version, resolution.digest, stored.path, false, signer);
  }

  private async verified(req: ChartRequest, resolution: Resolution, shown: string): Promise<string> {
    const { text, file } = await resolution.provenance();
    const { signer } = await verifyProvenance({
      text,
      file,
      digest: resolution.digest,
      keys: req.verify?.keys ?? [],
      what: `${shown}: ${req.name} ${resolution.version}`,
    });
    return signer;
  }

  private async resolveHttp(req: ChartRequest): Promise<Resolution> {
    const o = {
      repository: req.repository,
      name: req.name,
      version: req.version,
      credentials: req.credentials,
      ca: req.ca,
      signal: req.signal,
    };
    const chart = await resolveHttpChart(o);
    return {
      version: chart.version,
      digest: chart.digest,
      fetch: () => fetchHttpChart(o, chart),
      provenance: () => fetchHttpProvenance(o, chart),
    };
  }

  private async resolveOci(req: ChartRequest): Promise<Resolution> {
    const chart = await resolveOciChart(req);
    return {
      version: chart.version,
      digest: chart.layer.digest,
      fetch: () => fetchOciChart(chart),
      provenance: () => fetchOciProvenance(chart, req.name),
    };
  }

  /** Credentials are part of the key: a resolution made with one Secret is not reused for a caller without it. */
  private keyOf(req: ChartRequest): string {
    const who = req.credentials
      ? createHash('sha256').update(`${req.credentials.username}\0${req.credentials.password}`).digest('hex')
      : '';
    const keyring = req.verify ? `verify:${req.verify.keys.map((k) => k.getFingerprint()).sort()}` : '';
    return [req.repository, req.name, req.version, who, req.ca ?? '', req.insecure ? 'insecure' : '', keyring].join(
      '\0',
    );
  }
}

let shared: ChartPuller | undefined;

/** The process's puller (its cache under defaultCacheDir()), made on first use. */
export function defaultChartPuller(): ChartPuller {
  shared ??= new ChartPuller();
  return shared;
}

// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { keyringFromSecret } from './keyring.js';
// faces:end
