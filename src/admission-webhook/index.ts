// The validating admission webhook FlowOps serves on a cluster (`flowops run --admission-listen`):
// Flow, FlowSource and Operator writes get the checks `flowops validate` makes, with the schemas of
// the cluster's CRDs, and a refusal names the field and the reason. The serving certificate is
// FlowOps' own (a CA in a Secret, rotated before expiry) or read from a folder (cert-manager's).
import type { KubeClient } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { readCertDir } from './cert-dir.js';
import { ClusterSchemas } from './cluster-schemas.js';
import { SelfSignedCerts } from './self-signed-certs.js';
import { startWebhookServer } from './server.js';

export { answerAdmission, parseAdmissionReview, type AdmissionReviewOut } from './review.js';
export { EmbeddedChecks } from './embedded-checks.js';
export { checkObject, CHECKED_KINDS, needsCheck, formatFinding, type ObjectFinding } from './object-checks.js';
export { ClusterSchemas, FixedSchemas, type SchemaSource } from './cluster-schemas.js';
export { generateServingPki, type KeyPairPem } from './certs.js';
export { WebhookError, type WebhookErrorCode } from './errors.js';
export { startWebhookServer, VALIDATE_PATH, type WebhookServer } from './server.js';

export type WebhookCertificates =
  | {
      mode: 'self-signed';
      secret: { namespace: string; name: string };
      configuration: string;
      hosts: readonly string[];
      lifetimeMs: number;
      propagationMs: number;
    }
  | { mode: 'dir'; dir: string };

export interface AdmissionWebhookOptions {
  kube: KubeClient;
  host: string;
  port: number;
  certificates: WebhookCertificates;
  /** How often the certificate is checked for rotation (and the folder read again). */
  checkEveryMs: number;
  log: Logger;
}

export interface AdmissionWebhook {
  address: string;
  close(): Promise<void>;
}

export async function startAdmissionWebhook(opts: AdmissionWebhookOptions): Promise<AdmissionWebhook> {
  const certs = opts.certificates;
  const self =
    certs.mode === 'self-signed' ? new SelfSignedCerts({ kube: opts.kube, log: opts.log, ...certs }) : undefined;
  const current = () => (self ? self.sync() : Promise.resolve(readCertDir(certs.mode === 'dir' ? certs.dir : '')));
  let serving = await current();
  const server = await startWebhookServer({
    host: opts.host,
    port: opts.port,
    certificate: serving,
    schemas: new ClusterSchemas(opts.kube),
    log: opts.log,
  });
  opts.log.info({ address: server.address, certificates: certs.mode }, 'admission webhook listening');
  let round: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    round = round.then(async () => {
      try {
        const next = await current();
        if (next.cert !== serving.cert || next.key !== serving.key) {
          server.useCertificate(next);
          serving = next;
        }
      } catch (e) {
        // The certificate in use stays; the next round tries again.
        opts.log.warn({ err: e }, 'webhook certificate check failed');
      }
    });
  }, opts.checkEveryMs);
  return {
    address: server.address,
    close: async () => {
      clearInterval(timer);
      await round;
      await server.close();
    },
  };
}
