// FlowOps' own CA for the webhook, kept in a Secret so every replica serves the same certificate,
// and written into the ValidatingWebhookConfiguration's caBundle. A rotation never refuses a
// request: the new CA joins the caBundle first (beside the old one), replicas keep serving the old
// certificate until the API server has had the new bundle for `propagationMs`, and the old CA
// stays in the bundle until the next rotation.
import { createHash } from 'node:crypto';
import { isConflict, type KubeClient, KubeApiError, type KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { generateServingPki, notAfterOf, splitPemBundle, type KeyPairPem } from './certs.js';
import { WebhookError } from './errors.js';

export interface SelfSignedOptions {
  kube: KubeClient;
  /** The Secret holding the CA and serving keys. */
  secret: { namespace: string; name: string };
  /** The ValidatingWebhookConfiguration whose webhooks' caBundle FlowOps keeps. */
  configuration: string;
  /** Names and IPs the serving certificate is for (the Service's DNS names, or 127.0.0.1). */
  hosts: readonly string[];
  lifetimeMs: number;
  /** How long the API server is given to pick up a new caBundle before the new certificate is served. */
  propagationMs: number;
  log: Logger;
}

interface Pki {
  caCert: string;
  caKey: string;
  serving: KeyPairPem;
}

interface Stored {
  current: Pki;
  previous: Pki | undefined;
}

const FIELD_MANAGER = 'flowops-webhook-certs';
const VWC = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration' };

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: unknown): string => (typeof s === 'string' ? Buffer.from(s, 'base64').toString('utf8') : '');
const fingerprint = (pem: string): string => createHash('sha256').update(pem.trim()).digest('hex');

function pkiData(p: Pki, prefix: string): Record<string, string> {
  return {
    [`${prefix}ca.crt`]: b64(p.caCert),
    [`${prefix}ca.key`]: b64(p.caKey),
    [`${prefix}tls.crt`]: b64(p.serving.cert),
    [`${prefix}tls.key`]: b64(p.serving.key),
  };
}

function readPki(data: Record<string, unknown>, prefix: string): Pki | undefined {
  const caCert = unb64(data[`${prefix}ca.crt`]);
  const caKey = unb64(data[`${prefix}ca.key`]);
  const cert = unb64(data[`${prefix}tls.crt`]);
  const key = unb64(data[`${prefix}tls.key`]);
  if (!caCert || !caKey || !cert || !key) return undefined;
  return { caCert, caKey, serving: { cert, key } };
}

function storedOf(secret: KubeObject): Stored {
  const data = typeof secret.data === 'object' && secret.data !== null ? (secret.data as Record<string, unknown>) : {};
  const current = readPki(data, '');
  if (!current || Number.isNaN(notAfterOf(current.serving.cert))) {
    throw new WebhookError(
      'CertSecretInvalid',
      `Secret ${secret.metadata.namespace}/${secret.metadata.name} has no readable ca.crt, ca.key, tls.crt and tls.key`,
    );
  }
  return { current, previous: readPki(data, 'previous-') };
}

function newPki(hosts: readonly string[], lifetimeMs: number): Pki {
  const p = generateServingPki(hosts, lifetimeMs);
  return { caCert: p.ca.cert, caKey: p.ca.key, serving: p.serving };
}

/**
 * Due when less than a third of the configured lifetime is left (not of notBefore..notAfter, which
 * starts a minute early for clock skew), or at once when it outlives the lifetime now configured.
 */
function rotationDue(p: Pki, now: number, lifetimeMs: number): boolean {
  const left = notAfterOf(p.serving.cert) - now;
  return !(left > lifetimeMs / 3) || left > lifetimeMs + 60_000;
}

export class SelfSignedCerts {
  /** When this replica first saw each CA (by fingerprint) in every webhook's caBundle. */
  private readonly seenInBundle = new Map<string, number>();
  private serving: KeyPairPem | undefined;

  constructor(private readonly opts: SelfSignedOptions) {}

  /**
   * One round: the Secret created or rotated when due, the caBundle brought up to date, and the
   * certificate to serve now (the previous one while the new CA is still propagating).
   */
  async sync(now = Date.now()): Promise<KeyPairPem> {
    const stored = await this.rotateIfDue(await this.load(), now);
    const bundle = [
      stored.current.caCert,
      ...(stored.previous && notAfterOf(stored.previous.caCert) > now ? [stored.previous.caCert] : []),
    ];
    const inBundle = await this.updateBundle(bundle.join(''));
    const key = fingerprint(stored.current.caCert);
    if (inBundle === 'all' && !this.seenInBundle.has(key)) this.seenInBundle.set(key, now);
    const seenAt = this.seenInBundle.get(key);
    // No configuration to wait for (not installed yet, or every webhook gone): nothing can refuse.
    const propagated = inBundle === 'none' || (seenAt !== undefined && now - seenAt >= this.opts.propagationMs);
    const next = propagated || !stored.previous ? stored.current.serving : stored.previous.serving;
    if (next.cert !== this.serving?.cert) {
      this.opts.log.info(
        { notAfter: new Date(notAfterOf(next.cert)).toISOString(), previous: next !== stored.current.serving },
        'webhook serving certificate',
      );
    }
    this.serving = next;
    return next;
  }

  private async load(): Promise<Stored> {
    const { namespace, name } = this.opts.secret;
    const existing = await this.opts.kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name });
    if (existing) return storedOf(existing);
    const current = newPki(this.opts.hosts, this.opts.lifetimeMs);
    const secret: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: { namespace, name },
      data: pkiData(current, ''),
    };
    try {
      return storedOf(await this.opts.kube.create(secret, { fieldManager: FIELD_MANAGER }));
    } catch (e) {
      // Another replica created it first: use theirs.
      if (e instanceof KubeApiError && e.statusCode === 409) return this.load();
      throw e;
    }
  }

  private async rotateIfDue(stored: Stored, now: number): Promise<Stored> {
    if (!rotationDue(stored.current, now, this.opts.lifetimeMs)) return stored;
    const { namespace, name } = this.opts.secret;
    const secret = await this.opts.kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name });
    if (!secret) return stored;
    const next: Stored = { current: newPki(this.opts.hosts, this.opts.lifetimeMs), previous: stored.current };
    const data = { ...pkiData(next.current, ''), ...pkiData(stored.current, 'previous-') };
    try {
      const written = await this.opts.kube.replace({ ...secret, data }, { fieldManager: FIELD_MANAGER });
      this.opts.log.info({ secret: `${namespace}/${name}` }, 'webhook CA rotated');
      return storedOf(written);
    } catch (e) {
      // Another replica rotated first: read what it wrote.
      if (isConflict(e)) return this.load();
      throw e;
    }
  }

  /**
   * Sets every webhook's caBundle of the configuration to `bundle`; says whether the bundle it
   * read back holds the current CA in every webhook ('none' when there is no webhook to hold it).
   */
  private async updateBundle(bundle: string): Promise<'all' | 'pending' | 'none'> {
    const vwc = await this.opts.kube.get({ ...VWC, name: this.opts.configuration });
    const webhooks = Array.isArray(vwc?.webhooks) ? (vwc.webhooks as Array<Record<string, unknown>>) : [];
    if (!vwc || webhooks.length === 0) return 'none';
    const want = b64(bundle);
    const stale = webhooks.some((w) => (w.clientConfig as { caBundle?: string } | undefined)?.caBundle !== want);
    if (!stale) return 'all';
    const updated = webhooks.map((w) => ({
      ...w,
      clientConfig: { ...(w.clientConfig as object | undefined), caBundle: want },
    }));
    try {
      await this.opts.kube.replace({ ...vwc, webhooks: updated }, { fieldManager: FIELD_MANAGER });
    } catch (e) {
      if (isConflict(e)) return 'pending';
      throw e;
    }
    this.opts.log.info(
      { configuration: this.opts.configuration, cas: splitPemBundle(bundle).length },
      'webhook caBundle updated',
    );
    // Seen in the bundle from this write on; the propagation wait starts now.
    return 'all';
  }
}
