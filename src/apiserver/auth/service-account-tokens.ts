import { createHash, createPublicKey, randomUUID } from 'node:crypto';
import { importPKCS8, importSPKI, jwtVerify, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { type UserInfo, serviceAccountGroups, serviceAccountUsername } from './user-info.js';

/** The `kubernetes.io` claim of a bound ServiceAccount token (pkg/serviceaccount/claims.go). */
interface KubernetesClaim {
  namespace: string;
  serviceaccount: { name: string; uid: string };
}

export interface TokenSubject {
  namespace: string;
  name: string;
  uid: string;
}

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

/** Looks up a ServiceAccount's uid; undefined when it does not exist (a token for a deleted one is refused). */
export type ServiceAccountUid = (namespace: string, name: string) => string | undefined;

/**
 * Signs and verifies ServiceAccount tokens shaped as kube-apiserver's bound tokens (ES256, or RS256 for an RSA key; iss,
 * aud, sub `system:serviceaccount:ns:name`, the `kubernetes.io` claim, exp/iat/nbf/jti, kid = the
 * key's SHA-256 as kube-apiserver derives it). A token is valid while its ServiceAccount exists
 * with the uid it was issued for, as for kube-apiserver's bound tokens.
 */
export class ServiceAccountTokens {
  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    private readonly keyId: string,
    private readonly alg: 'RS256' | 'ES256',
    readonly issuer: string,
    private readonly uidOf: ServiceAccountUid,
  ) {}

  static async create(privateKeyPem: string, issuer: string, uidOf: ServiceAccountUid): Promise<ServiceAccountTokens> {
    const spki = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
    const der = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'der' });
    const kid = createHash('sha256').update(der).digest('base64url');
    const alg = createPublicKey(privateKeyPem).asymmetricKeyType === 'rsa' ? 'RS256' : 'ES256';
    const [priv, pub] = await Promise.all([importPKCS8(privateKeyPem, alg), importSPKI(spki, alg)]);
    return new ServiceAccountTokens(priv, pub, kid, alg, issuer, uidOf);
  }

  /** The API server's own audience: what a TokenRequest without audiences gets. */
  get defaultAudiences(): string[] {
    return [this.issuer];
  }

  async issue(sa: TokenSubject, audiences: string[], expirationSeconds: number): Promise<IssuedToken> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + expirationSeconds;
    const claim: KubernetesClaim = { namespace: sa.namespace, serviceaccount: { name: sa.name, uid: sa.uid } };
    const token = await new SignJWT({ 'kubernetes.io': claim as unknown as JWTPayload[string] })
      .setProtectedHeader({ alg: this.alg, kid: this.keyId })
      .setIssuer(this.issuer)
      .setAudience(audiences)
      .setSubject(serviceAccountUsername(sa.namespace, sa.name))
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(exp)
      .setJti(randomUUID())
      .sign(this.privateKey);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /** The user a token stands for, or undefined when it is not one of ours, expired, for another audience, or its ServiceAccount is gone. */
  async authenticate(token: string, audiences: string[] = this.defaultAudiences): Promise<UserInfo | undefined> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.publicKey, {
        issuer: this.issuer,
        audience: audiences,
        algorithms: [this.alg],
      }));
    } catch {
      return undefined;
    }
    const k = payload['kubernetes.io'] as Partial<KubernetesClaim> | undefined;
    const ns = k?.namespace;
    const name = k?.serviceaccount?.name;
    if (!ns || !name || payload.sub !== serviceAccountUsername(ns, name)) return undefined;
    const uid = this.uidOf(ns, name);
    if (!uid || uid !== k.serviceaccount?.uid) return undefined;
    const user: UserInfo = { username: payload.sub, uid, groups: serviceAccountGroups(ns) };
    if (payload.jti) user.extra = { 'authentication.kubernetes.io/credential-id': [`JTI=${payload.jti}`] };
    return user;
  }
}

/** Whether a bearer token looks like a JWT at all (three base64url parts), before trying to verify it. */
export const looksLikeJwt = (token: string): boolean => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
