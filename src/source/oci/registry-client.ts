import { createHash } from 'node:crypto';
import { Agent, fetch, type Dispatcher, type Response } from 'undici';
import { SourceError } from '../errors.js';
import type { RegistryCredentials } from './docker-config.js';
import { DIGEST, type Descriptor } from './media-types.js';
import { repositoryUrl, type OciReference } from './reference.js';

/**
 * A client for the OCI distribution spec (the /v2/ API), written on fetch. The npm OCI clients
 * either only pull from public registries or are unmaintained (docker-registry-client, last
 * release years old; @sigstore/oci is an internal piece of sigstore-js), and what FlowOps needs is
 * small: one manifest, one config and one layer, pushed and pulled with Basic or token auth. Every
 * byte read is checked against the digest that names it. Errors name the repository, never a
 * credential; credentials go only into Authorization headers.
 */
export interface RegistryClientOptions {
  ref: OciReference;
  credentials?: RegistryCredentials | undefined;
  /** Plain HTTP (a registry on loopback or a test one); otherwise HTTPS. */
  insecure?: boolean | undefined;
  /** PEM CA bundle the registry's certificate is checked against (a private registry's CA). */
  ca?: string | undefined;
  /** Ends every request (a step's timeout); the abort reason is thrown as it is. */
  signal?: AbortSignal | undefined;
}

export const MANIFEST_LIMIT = 4 * 1024 * 1024;
export const BLOB_LIMIT = 256 * 1024 * 1024;

export const sha256Digest = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** `Bearer realm="…",service="…",scope="…"` or `Basic realm="…"`. */
export function parseChallenge(header: string): Challenge {
  const space = header.indexOf(' ');
  const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
  const params: Record<string, string> = {};
  for (const m of header.slice(space + 1).matchAll(/([a-zA-Z_]+)="([^"]*)"/g)) params[m[1] ?? ''] = m[2] ?? '';
  return { scheme, params };
}

export class RegistryClient {
  private readonly base: string;
  private readonly name: string;
  private authorization: string | undefined;
  private readonly dispatcher: Dispatcher | undefined;

  constructor(private readonly opts: RegistryClientOptions) {
    this.base = `${opts.insecure ? 'http' : 'https'}://${opts.ref.registry}/v2/${opts.ref.repository}`;
    this.name = repositoryUrl(opts.ref);
    this.dispatcher = opts.ca ? new Agent({ connect: { ca: opts.ca } }) : undefined;
  }

  /** The manifest `reference` (a tag or digest) names, its bytes and the digest they hash to. */
  async getManifest(reference: string, accept: string): Promise<{ digest: string; bytes: Uint8Array }> {
    const res = await this.send('GET', `/manifests/${reference}`, { headers: { accept } }, `manifest ${reference}`);
    const bytes = await this.body(res, MANIFEST_LIMIT, `manifest ${reference}`);
    const digest = sha256Digest(bytes);
    if (DIGEST.test(reference) && digest !== reference) {
      throw new SourceError(
        'DigestMismatch',
        `${this.name}: the manifest served for ${reference} hashes to ${digest}; refused`,
      );
    }
    const claimed = res.headers.get('docker-content-digest');
    if (claimed && DIGEST.test(claimed) && claimed !== digest) {
      throw new SourceError(
        'DigestMismatch',
        `${this.name}: manifest ${reference} hashes to ${digest}, not ${claimed} as the registry says`,
      );
    }
    return { digest, bytes };
  }

  /** A blob, refused unless it is exactly `desc.size` bytes that hash to `desc.digest`. */
  async getBlob(desc: Descriptor, what: string): Promise<Uint8Array> {
    if (!DIGEST.test(desc.digest))
      throw new SourceError(
        'ArtifactInvalid',
        `${this.name}: ${what} has digest "${desc.digest}", not sha256:<64 hex>`,
      );
    if (desc.size > BLOB_LIMIT)
      throw new SourceError(
        'ArtifactInvalid',
        `${this.name}: ${what} is ${desc.size} bytes, over the ${BLOB_LIMIT} limit`,
      );
    const res = await this.send('GET', `/blobs/${desc.digest}`, {}, `${what} ${desc.digest}`);
    const bytes = await this.body(res, desc.size, `${what} ${desc.digest}`);
    if (bytes.length !== desc.size) {
      throw new SourceError(
        'ArtifactInvalid',
        `${this.name}: ${what} ${desc.digest} is truncated: ${bytes.length} of ${desc.size} bytes`,
      );
    }
    const digest = sha256Digest(bytes);
    if (digest !== desc.digest)
      throw new SourceError('DigestMismatch', `${this.name}: ${what} hashes to ${digest}, not ${desc.digest}`);
    return bytes;
  }

  /** Uploads a blob (monolithic POST then PUT) unless the registry has it already. */
  async pushBlob(bytes: Uint8Array): Promise<Descriptor & { mediaType: '' }> {
    const digest = sha256Digest(bytes);
    const head = await this.send('HEAD', `/blobs/${digest}`, {}, `blob ${digest}`, [404]);
    if (head.status !== 404) return { mediaType: '', digest, size: bytes.length };
    const start = await this.send('POST', '/blobs/uploads/', { headers: { 'content-length': '0' } }, 'a blob upload');
    const location = start.headers.get('location');
    if (!location)
      throw new SourceError('FetchFailed', `${this.name}: the registry started an upload without a Location`);
    const url = new URL(location, this.base);
    url.searchParams.set('digest', digest);
    const headers = { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) };
    await this.send('PUT', url.toString(), { headers, body: bytes }, `blob ${digest}`);
    return { mediaType: '', digest, size: bytes.length };
  }

  /** Puts a manifest under a tag; returns the digest of its bytes. */
  async putManifest(tag: string, bytes: Uint8Array, mediaType: string): Promise<string> {
    await this.send(
      'PUT',
      `/manifests/${tag}`,
      { headers: { 'content-type': mediaType }, body: bytes },
      `manifest ${tag}`,
    );
    return sha256Digest(bytes);
  }

  /** Every tag of the repository, following the Link header's pages. */
  async listTags(): Promise<string[]> {
    const tags: string[] = [];
    let path: string | undefined = '/tags/list?n=1000';
    for (let page = 0; path && page < 100; page++) {
      const res = await this.send('GET', path, {}, 'the tag list');
      const body = JSON.parse(new TextDecoder().decode(await this.body(res, MANIFEST_LIMIT, 'the tag list'))) as {
        tags?: unknown;
      };
      if (Array.isArray(body.tags)) tags.push(...body.tags.filter((t): t is string => typeof t === 'string'));
      const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
      path = next ? new URL(next, this.base).toString() : undefined;
    }
    return tags;
  }

  /** One request, answering a 401 challenge once (Basic, or a Bearer token from the realm). */
  private async send(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: Uint8Array },
    what: string,
    allowed: number[] = [],
  ): Promise<Response> {
    const url = /^https?:\/\//.test(path) ? path : `${this.base}${path}`;
    let res = await this.fetchOnce(method, url, init, what);
    if (res.status === 401) {
      const challenge = res.headers.get('www-authenticate');
      await res.body?.cancel();
      if (!this.opts.credentials && !challenge?.toLowerCase().startsWith('bearer')) {
        throw new SourceError(
          'AuthRequired',
          `${this.name}: the registry asks for credentials (401) and none are configured`,
        );
      }
      this.authorization = await this.authorize(challenge ?? '');
      res = await this.fetchOnce(method, url, init, what);
      if (res.status === 401) {
        await res.body?.cancel();
        throw new SourceError(
          this.opts.credentials ? 'AuthFailed' : 'AuthRequired',
          this.opts.credentials
            ? `${this.name}: the registry refused the credentials (401)`
            : `${this.name}: the registry asks for credentials (401) and none are configured`,
        );
      }
    }
    if (res.ok || allowed.includes(res.status)) return res;
    const detail = (await res.text().catch(() => '')).slice(0, 300).replace(/\s+/g, ' ');
    if (res.status === 404 && method === 'GET')
      throw new SourceError('RefNotFound', `${this.name}: ${what} not found (404)`);
    if (res.status === 403) throw new SourceError('AuthFailed', `${this.name}: ${what}: access denied (403)`);
    throw new SourceError(
      'FetchFailed',
      `${this.name}: ${method} ${what}: HTTP ${res.status}${detail ? `: ${detail}` : ''}`,
    );
  }

  private async fetchOnce(
    method: string,
    url: string,
    init: { headers?: Record<string, string>; body?: Uint8Array },
    what: string,
  ): Promise<Response> {
    const headers = { ...init.headers, ...(this.authorization ? { authorization: this.authorization } : {}) };
    try {
      return await fetch(url, {
        method,
        headers,
        ...(init.body ? { body: new Uint8Array(init.body) } : {}),
        ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
        ...(this.opts.signal ? { signal: this.opts.signal } : {}),
        redirect: 'follow',
      });
    } catch (e) {
      if (this.opts.signal?.aborted) throw e;
      const cause =
        e instanceof Error && e.cause instanceof Error ? e.cause.message : e instanceof Error ? e.message : String(e);
      throw new SourceError('FetchFailed', `${this.name}: ${method} ${what}: ${cause}`);
    }
  }

  private async authorize(header: string): Promise<string> {
    const challenge = parseChallenge(header);
    const creds = this.opts.credentials;
    const basic = creds ? `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}` : undefined;
    if (challenge.scheme !== 'bearer') {
      if (!basic)
        throw new SourceError(
          'AuthRequired',
          `${this.name}: the registry asks for credentials (401) and none are configured`,
        );
      return basic;
    }
    const realm = challenge.params.realm;
    if (!realm) throw new SourceError('FetchFailed', `${this.name}: a Bearer challenge without a realm`);
    const url = new URL(realm);
    for (const key of ['service', 'scope'] as const) {
      const value = challenge.params[key];
      if (value) url.searchParams.set(key, value);
    }
    let res: Response;
    try {
      res = await fetch(url, {
        headers: basic ? { authorization: basic } : {},
        ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
        ...(this.opts.signal ? { signal: this.opts.signal } : {}),
      });
    } catch (e) {
      throw new SourceError(
        'FetchFailed',
        `${this.name}: token service ${url.origin}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    if (res.status === 401 || res.status === 403) {
      throw new SourceError(
        creds ? 'AuthFailed' : 'AuthRequired',
        `${this.name}: the token service refused ${creds ? 'the credentials' : 'an anonymous token'} (${res.status})`,
      );
    }
    if (!res.ok) throw new SourceError('FetchFailed', `${this.name}: token service ${url.origin}: HTTP ${res.status}`);
    const body = (await res.json().catch(() => ({}))) as { token?: unknown; access_token?: unknown };
    const token =
      typeof body.token === 'string'
        ? body.token
        : typeof body.access_token === 'string'
          ? body.access_token
          : undefined;
    if (!token) throw new SourceError('FetchFailed', `${this.name}: the token service answered without a token`);
    return `Bearer ${token}`;
  }

  /** The body, at most `limit` bytes (more is refused); a connection cut short is a truncated read. */
  private async body(res: Response, limit: number, what: string): Promise<Uint8Array> {
    const length = Number(res.headers.get('content-length') ?? '0');
    if (length > limit) {
      await res.body?.cancel();
      throw new SourceError('ArtifactInvalid', `${this.name}: ${what} is ${length} bytes, over the ${limit} expected`);
    }
    try {
      return new Uint8Array(await res.arrayBuffer());
    } catch (e) {
      throw new SourceError(
        'ArtifactInvalid',
        `${this.name}: ${what} was cut short: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
}
