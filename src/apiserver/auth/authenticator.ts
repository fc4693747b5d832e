import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { type ServiceAccountTokens, looksLikeJwt } from './service-account-tokens.js';
import { anonymousUser, withAuthenticated, type UserInfo } from './user-info.js';

export interface Authenticators {
  /** Static bearer tokens (kube-apiserver's --token-auth-file): token → user. */
  staticTokens: ReadonlyMap<string, UserInfo>;
  serviceAccounts: ServiceAccountTokens;
  /** Requests without credentials are system:anonymous (kube-apiserver's --anonymous-auth); else 401. */
  anonymous: boolean;
  /** Paths an anonymous request may reach even without `anonymous` (the health and version probes). */
  anonymousPaths: (path: string) => boolean;
}

/** undefined: not authenticated (answer 401). */
export async function authenticate(
  req: IncomingMessage,
  path: string,
  a: Authenticators,
): Promise<UserInfo | undefined> {
  const fromCert = clientCertificateUser(req);
  if (fromCert) return withAuthenticated(fromCert);
  const header = req.headers.authorization;
  if (header !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const token = m?.[1];
    if (!token) return undefined;
    const user =
      a.staticTokens.get(token) ?? (looksLikeJwt(token) ? await a.serviceAccounts.authenticate(token) : undefined);
    return user ? withAuthenticated(user) : undefined;
  }
  return a.anonymous || a.anonymousPaths(path) ? anonymousUser() : undefined;
}

/** A client certificate the TLS layer verified against the client CA: CN the user, each O a group (kube's x509 authenticator). */
function clientCertificateUser(req: IncomingMessage): UserInfo | undefined {
  const socket = req.socket as Partial<TLSSocket>;
  if (!socket.encrypted || !socket.authorized || !socket.getPeerCertificate) return undefined;
  const subject = socket.getPeerCertificate().subject as Record<string, string | string[] | undefined> | undefined;
  const cn = subject?.CN;
  const username = Array.isArray(cn) ? cn[0] : cn;
  if (!username) return undefined;
  const o = subject?.O;
  return { username, groups: o === undefined ? [] : Array.isArray(o) ? o : [o] };
}
