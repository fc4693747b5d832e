import { z } from 'zod';
import { isVersionConstraint } from '../charts/versions.js';

/**
 * A template step's chart from a chart repository. The fields follow what users of the other
 * tools already write: Flux's HelmRepository (url, secretRef, certSecretRef, insecure) and
 * HelmChart (chart, version), and Argo CD's Application source (repoURL, chart, targetRevision),
 * folded into one map: repository ↔ url/repoURL, name ↔ chart, version ↔ version/targetRevision;
 * verify is Helm's own `--verify --keyring` (provenance files), with the keyring from a Secret.
 */
const secretName = z.object({ name: z.string().min(1) }).strict();

export const chartRefSchema = z
  .object({
    repository: z
      .string()
      .regex(/^(https?|oci):\/\/[^/\s]+/, 'expected an https://, http:// or oci:// repository URL')
      .refine((url) => !/^[a-z]+:\/\/[^/]*@/.test(url), {
        message: 'must not hold credentials (user:password@); name a Secret in secretRef',
      })
      .describe(
        'The chart repository: https://charts.example.com (its index.yaml is read) or oci://registry/path ' +
          '(the chart is the OCI repository <path>/<name>, as `helm push` names it).',
      ),
    name: z
      .string()
      .regex(/^[a-zA-Z0-9][-a-zA-Z0-9_.]*$/, 'expected a chart name (letters, digits, "-", "_" or ".")')
      .describe("The chart's name in the repository."),
    version: z
      .string()
      .refine((v) => v.includes('{{') || isVersionConstraint(v), {
        message: 'expected an exact version or a semver range, such as "1.4.2", "^1.4" or ">=1.0.0 <2.0.0"',
      })
      .describe('An exact version or a semver range; the highest match is rendered. May be a template.'),
    secretRef: secretName
      .describe(
        "Secret in the watched resource's namespace: username and password (basic auth), or a " +
          '.dockerconfigjson (OCI registries).',
      )
      .optional(),
    certSecretRef: secretName
      .describe("Secret in the watched resource's namespace whose ca.crt is the repository's CA bundle.")
      .optional(),
    insecure: z
      .boolean()
      .describe('OCI only: talk plain HTTP to the registry (a test registry on loopback).')
      .optional(),
    verify: z
      .object({
        secretRef: secretName.describe(
          "Secret in the watched resource's namespace whose keys ending in .asc hold the trusted armored " +
            'OpenPGP public keys (gpg --export --armor).',
        ),
      })
      .strict()
      .describe(
        "Require the chart's provenance file (helm package --sign; <chart>.tgz.prov over HTTP, the provenance " +
          'layer in OCI) signed by a trusted key and vouching for the archive digest, as `helm pull --verify`.',
      )
      .optional(),
  })
  .strict();

export type ChartRef = z.infer<typeof chartRefSchema>;
