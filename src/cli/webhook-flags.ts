import type { Command } from 'commander';
import type { KubeClient } from '../kube/client.js';
import type { Logger } from '../log/index.js';
import { durationFlag } from './cluster-flags.js';
import { parseListen } from './listen.js';
import { SetupError } from './setup-error.js';

/** `flowops run`'s admission webhook flags (docs/admission-webhook.md). */
export interface WebhookFlags {
  webhookListen?: string;
  webhookCertDir?: string;
  webhookSecret: string;
  webhookConfiguration: string;
  webhookHosts: string;
  webhookCertLifetime: number;
  webhookCertCheck: number;
  webhookCaPropagation: number;
}

export function addWebhookFlags(cmd: Command): Command {
  return cmd
    .option('--webhook-listen <host:port>', 'serve the validating admission webhook (HTTPS, POST /validate) here')
    .option('--webhook-cert-dir <dir>', "serve tls.crt/tls.key from this folder (cert-manager's) instead of FlowOps' own CA")
    .option('--webhook-secret <namespace/name>', "the Secret keeping FlowOps' webhook CA", 'flowops-system/flowops-webhook-certs')
    .option('--webhook-configuration <name>', 'the ValidatingWebhookConfiguration whose caBundle FlowOps keeps', 'flowops-validation')
    .option('--webhook-hosts <names>', 'comma-separated DNS names and IPs of the serving certificate', 'flowops-webhook.flowops-system.svc')
    .option('--webhook-cert-lifetime <d>', "how long FlowOps' CA and serving certificate are valid (rotated with a third left)", durationFlag, 8760 * 3_600_000)
    .option('--webhook-cert-check <d>', 'how often the certificate is checked for rotation or re-read', durationFlag, 60_000)
    .option('--webhook-ca-propagation <d>', 'how long the API server gets to load a new caBundle before the new certificate is served', durationFlag, 10_000);
}

/** Starts the webhook when --webhook-listen is given; returns its close. */
export async function startWebhookFromFlags(flags: WebhookFlags, kube: KubeClient, log: Logger): Promise<() => Promise<void>> {
  if (!flags.webhookListen) return async () => undefined;
  const { host, port } = parseListen(flags.webhookListen);
  const [namespace, name, ...rest] = flags.webhookSecret.split('/');
  if (!namespace || !name || rest.length) throw new SetupError(`--webhook-secret: expected NAMESPACE/NAME, got "${flags.webhookSecret}"`);
  const { startAdmissionWebhook } = await import('../admission-webhook/index.js');
  const hosts = flags.webhookHosts.split(',').map((h) => h.trim()).filter(Boolean);
  const webhook = await startAdmissionWebhook({
    kube,
    host,
    port,
    log,
    checkEveryMs: flags.webhookCertCheck,
    certificates: flags.webhookCertDir
      ? { mode: 'dir', dir: flags.webhookCertDir }
      : { mode: 'self-signed', secret: { namespace, name }, configuration: flags.webhookConfiguration, hosts, lifetimeMs: flags.webhookCertLifetime, propagationMs: flags.webhookCaPropagation },
  });
  return () => webhook.close();
}
