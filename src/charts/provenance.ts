// A Helm chart's provenance file (<chart>.tgz.prov), verified as `helm verify` / `helm pull
// --verify` does (helm.sh/helm/v4/pkg/provenance/sign.go, Signatory.Verify and
// parseMessageBlock): an OpenPGP clear-signed document whose text is the chart's Chart.yaml, a
// "..." line, then `files: {<name>.tgz: sha256:<hex>}`. The signature must be by a trusted key and
// the entry for the archive's file name must be the digest the archive is checked against, so a
// verified provenance vouches for exactly the bytes that are rendered.

import type { Key } from 'openpgp';
import { parse } from 'yaml';
import { verifyOpenPgpCleartext } from '../source/verify/openpgp-verify.js';
import { ChartError } from './errors.js';

/** Provenance files are a few KiB; anything larger is not one. */
export const PROVENANCE_LIMIT = 1024 * 1024;

export interface ProvenanceCheck {
  /** The provenance document as fetched. */
  text: string;
  /** The archive's file name the provenance must list: `<name>-<version>.tgz` as `helm package` names it. */
  file: string;
  /** sha256:<hex> the archive is (or will be) checked against. */
  digest: string;
  keys: Key[];
  /** Names the chart in messages: `<repository>: <name> <version>`. */
  what: string;
  now?: Date;
}

/** Returns who signed; throws a ChartError naming what failed and the digest concerned. */
export async function verifyProvenance(c: ProvenanceCheck): Promise<{ signer: string }> {
  const { verdict, text } = await verifyOpenPgpCleartext(c.text, c.keys, c.now);
  if (!verdict.ok) {
    if (verdict.signer === 'unreadable OpenPGP signature') {
      throw new ChartError('ChartProvenanceInvalid', `${c.what}: the provenance file is ${verdict.detail}`);
    }
    throw new ChartError(
      verdict.code === 'UntrustedSigner' ? 'ChartSignerUntrusted' : 'ChartSignatureInvalid',
      `${c.what} (${c.digest}): provenance signed by ${verdict.signer}: ${verdict.detail}; refused`,
    );
  }
  const files = filesOf(text ?? '', c.what);
  const listed = files[c.file];
  if (listed === undefined) {
    throw new ChartError(
      'ChartProvenanceMismatch',
      `${c.what}: the provenance lists no file named ${c.file} (it lists ${Object.keys(files).join(', ') || 'none'})`,
    );
  }
  if (listed !== c.digest) {
    throw new ChartError(
      'ChartProvenanceMismatch',
      `${c.what}: the provenance vouches for ${c.file} ${listed}, not the archive's ${c.digest}; refused`,
    );
  }
  return { signer: verdict.signer };
}

/** The `files` map of the signed text's second part (after the "..." line). */
function filesOf(text: string, what: string): Record<string, string> {
  // Helm splits on "\n...\n"; the signed text's line endings are normalised to \n by OpenPGP.js.
  const parts = text.replace(/\r\n/g, '\n').split('\n...\n');
  const invalid = (why: string) => new ChartError('ChartProvenanceInvalid', `${what}: the provenance file ${why}`);
  if (parts.length < 2) throw invalid('has no "..." line between Chart.yaml and the file digests');
  let sums: unknown;
  try {
    sums = parse(parts[1] ?? '');
  } catch {
    throw invalid('has a digest section that is not YAML');
  }
  const files = typeof sums === 'object' && sums !== null ? (sums as { files?: unknown }).files : undefined;
  if (typeof files !== 'object' || files === null || Array.isArray(files)) {
    throw invalid('has no files map');
  }
  return Object.fromEntries(Object.entries(files).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
