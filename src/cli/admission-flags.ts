import type { Command } from 'commander';
import type { KubeClient } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { durationFlag } from './cluster-flags.js';
import { parseListen } from './listen.js';
import { SetupError } from '../util/setup-error.js';

/** `flowops run`'s admission webhook flags (docs/admission-webhook.md). */
export interface AdmissionFlags {
  admissionListen?: string;
  admissionCertDir?: string;
  admissionSecret: string;
  admissionConfiguration: string;
  admissionHosts: string;
  admissionCertLifetime: number;
  admissionCertCheck: number;
  admissionCaPropagation: number;
}

export function addAdmissionFlags(cmd: Command): Command {
  return cmd
    .option('--admission-listen <host:port>', 'serve the validating admission webhook (HTTPS, POST /validate) here')
    .option(
      '--admission-cert-dir <dir>',
      "serve tls.crt/tls.key from this folder (cert-manager's) instead of FlowOps' own CA",
    )
    .option(
      '--admission-secret <namespace/name>',
      "the Secret keeping FlowOps' webhook CA",
      'flowops-system/flowops-admission-certs',
    )
    .option(
      '--admission-configuration <name>',
      'the ValidatingWebhookConfiguration whose caBundle FlowOps keeps',
      'flowops-validation',
    )
    .option(
      '--admission-hosts <names>',
      'comma-separated DNS names and IPs of the serving certificate',
      'flowops-admission.flowops-system.svc,flowops-admission.flowops-system.svc.cluster.local',
    )
    .option(
      '--admission-cert-lifetime <d>',
      "how long FlowOps' CA and serving certificate are valid (rotated with a third left)",
      durationFlag,
      8760 * 3_600_000,
    )
    .option(
      '--admission-cert-check <d>',
      'how often the certificate is checked for rotation or re-read',
      durationFlag,
      60_000,
    )
    .option(
      '--admission-ca-propagation <d>',
      'how long the API server gets to load a new caBundle before the new certificate is served',
      durationFlag,
      10_000,
    );
}

/** Starts the webhook when --admission-listen is given; returns its close. */
export async function startAdmissionFromFlags(
  flags: AdmissionFlags,
  kube: KubeClient,
  log: Logger,
): Promise<() => Promise<void>> {
  if (!flags.admissionListen) return async () => undefined;
  const { host, port } = parseListen(flags.admissionListen);
  const [namespace, name, ...rest] = flags.admissionSecret.split('/');
  if (!namespace || !name || rest.length)
    throw new SetupError(`--admission-secret: expected NAMESPACE/NAME, got "${flags.admissionSecret}"`);
  const { startAdmissionWebhook } = await import('../admission-webhook/index.js');
  const hosts = flags.admissionHosts
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  const webhook = await startAdmissionWebhook({
    kube,
    host,
    port,
    log,
    checkEveryMs: flags.admissionCertCheck,
    certificates: flags.admissionCertDir
      ? { mode: 'dir', dir: flags.admissionCertDir }
      : {
          mode: 'self-signed',
          secret: { namespace, name },
          configuration: flags.admissionConfiguration,
          hosts,
          lifetimeMs: flags.admissionCertLifetime,
          propagationMs: flags.admissionCaPropagation,
        },
  });
  return () => webhook.close();
}
