import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../package-root.js';

/**
 * Where scripts/gen-openapi.ts writes the vendored kube-apiserver schemas. Under src/ so the image
 * (which copies src/) has them; found from src/, dist/ or the CLI bundle alike.
 */
export const VENDOR_DIR = join(PACKAGE_ROOT, 'src', 'apiserver', 'openapi', 'vendor');

/** A group-version's path under /openapi/v3: `api/v1`, `apis/apps/v1`. */
export const gvPath = (t: { group: string; version: string }): string =>
  t.group ? `apis/${t.group}/${t.version}` : `api/${t.version}`;

/** `api__v1.json.gz`, `apis__apps__v1.json.gz`: the upstream file name without `_openapi`. */
export const v3FileName = (group: string, version: string): string =>
  group ? `apis__${group}__${version}.json.gz` : `api__${version}.json.gz`;

export const CRD_META_FILE = 'crd-meta.v3.json.gz';
export const SWAGGER_DEFINITIONS_FILE = 'swagger.definitions.json.gz';

/**
 * The definitions a CRD's documents refer to, as apiextensions-apiserver's openapi builder adds them
 * (pkg/controller/openapi/builder: the object's metadata, the list's, and the operations' bodies and answers).
 */
export const CRD_META_SCHEMAS = [
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
  'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent',
  'io.k8s.api.autoscaling.v1.Scale',
];

export const MANIFEST_FILE = 'index.json';

/** What the generator wrote: each v3 document's file and its hash (so /openapi/v3 lists them unread). */
export interface VendorManifest {
  kubernetesVersion: string;
  v3: Record<string, { file: string; hash: string }>;
}

/** The `?hash=` of a document, as kube-apiserver computes it: SHA-512 of its bytes, upper-case hex. */
export const documentHash = (text: string | Buffer): string =>
  createHash('sha512').update(text).digest('hex').toUpperCase();
