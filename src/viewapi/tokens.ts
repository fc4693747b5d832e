import { createPublicKey, X509Certificate, createPrivateKey } from 'node:crypto';
import { importPKCS8, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { InvalidViewTokenError } from './errors.js';

/** A Kubernetes RBAC PolicyRule, as the view API server's tokens carry them (spec §6). */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface ViewClaims {
  username: string;
  /** Empty: any namespace (but no cluster-wide list); "*": every namespace and cluster-wide lists. */
  namespaces: string[];
  /** Empty: full access. */
  rules: PolicyRule[];
}

export const ISSUER = 'dcontroller';

/** Signs a token with the server's private key (RS256), as `dctl generate-config` does. */
export async function issueToken(
  privateKeyPem: string,
  claims: ViewClaims,
  opts: { expiresIn?: string | number; now?: number } = {},
): Promise<string> {
  // jose wants PKCS#8; openssl may write PKCS#1 ("BEGIN RSA PRIVATE KEY"), so normalise.
  const pkcs8 = createPrivateKey(privateKeyPem).export({ type: 'pkcs8', format: 'pem' }).toString();
  const key = await importPKCS8(pkcs8, 'RS256');
  const iat = Math.floor((opts.now ?? Date.now()) / 1000);
  return new SignJWT({ username: claims.username, namespaces: claims.namespaces, rules: claims.rules })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(claims.username)
    .setIssuedAt(iat)
    .setExpirationTime(typeof opts.expiresIn === 'number' ? iat + opts.expiresIn : (opts.expiresIn ?? '1y'))
    .sign(key);
}

/** Verifies signature (against the certificate's public key), issuer and expiry; returns the claims. */
export async function verifyToken(token: string, certPem: string): Promise<ViewClaims> {
  const publicKey = createPublicKey(new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'pem' }));
  const { payload } = await jwtVerify(token, publicKey, { issuer: ISSUER, algorithms: ['RS256'] });
  return claimsOf(payload);
}

function claimsOf(p: JWTPayload): ViewClaims {
  const username = typeof p.username === 'string' ? p.username : typeof p.sub === 'string' ? p.sub : '';
  if (!username) throw new InvalidViewTokenError('token has no username');
  const namespaces = Array.isArray(p.namespaces) ? p.namespaces.filter((n): n is string => typeof n === 'string') : [];
  const rules = Array.isArray(p.rules) ? (p.rules as PolicyRule[]).filter((r) => r && Array.isArray(r.verbs)) : [];
  return { username, namespaces, rules };
}
