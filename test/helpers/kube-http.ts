import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { parse } from 'yaml';
import type { ApiCall } from '../apiserver/admission/webhook-cases.js';

interface Kubeconfig {
  clusters: Array<{ cluster: { server: string; 'certificate-authority-data'?: string } }>;
  users: Array<{ user: { 'client-certificate-data'?: string; 'client-key-data'?: string; token?: string } }>;
}

const unb64 = (s: string | undefined) => (s ? Buffer.from(s, 'base64').toString('utf8') : undefined);

/** Raw HTTP to a server a kubeconfig names (client certificate or token), Warning headers split out. */
export function kubeconfigCall(path: string): ApiCall {
  const kc = parse(readFileSync(path, 'utf8')) as Kubeconfig;
  const cluster = kc.clusters[0]?.cluster;
  const user = kc.users[0]?.user ?? {};
  if (!cluster) throw new Error(`${path}: no cluster`);
  const base = new URL(cluster.server);
  return (method, p, body) =>
    new Promise((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const request = base.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = request(
        new URL(p, base),
        {
          method,
          ca: unb64(cluster['certificate-authority-data']),
          cert: unb64(user['client-certificate-data']),
          key: unb64(user['client-key-data']),
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            ...(user.token ? { authorization: `Bearer ${user.token}` } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const w = res.headers.warning;
            const warnings = (Array.isArray(w) ? w.join(', ') : (w ?? '')).split(/,\s*(?=299 )/).filter(Boolean);
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
              warnings,
            });
          });
        },
      );
      req.on('error', reject);
      req.end(text);
    });
}
