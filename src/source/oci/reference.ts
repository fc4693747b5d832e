import { SourceError } from '../errors.js';
import { DIGEST } from './media-types.js';

/** `oci://host[:port]/repository[:tag][@sha256:…]`, split into what the distribution API needs. */
export interface OciReference {
  /** host[:port], as a docker config's `auths` keys name it. */
  registry: string;
  repository: string;
  tag?: string | undefined;
  digest?: string | undefined;
}

const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const REPOSITORY = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;

/** Parses an oci:// URL; `where` names the field or argument in the error. */
export function parseOciUrl(url: string, where: string): OciReference {
  const bad = (why: string) => new SourceError('ArtifactInvalid', `${where}: "${url}" ${why}`);
  if (!url.startsWith('oci://')) throw bad('is not an oci:// URL (expected oci://registry/repository[:tag])');
  const rest = url.slice('oci://'.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) throw bad('names no repository (expected oci://registry/repository[:tag])');
  const registry = rest.slice(0, slash);
  let path = rest.slice(slash + 1);
  let digest: string | undefined;
  const at = path.indexOf('@');
  if (at >= 0) {
    digest = path.slice(at + 1);
    path = path.slice(0, at);
    if (!DIGEST.test(digest)) throw bad('has a digest that is not sha256: followed by 64 hex digits');
  }
  let tag: string | undefined;
  const colon = path.lastIndexOf(':');
  if (colon >= 0) {
    tag = path.slice(colon + 1);
    path = path.slice(0, colon);
    if (!TAG.test(tag)) throw bad(`has an invalid tag "${tag}"`);
  }
  if (!REPOSITORY.test(path))
    throw bad(`has an invalid repository "${path}" (lower-case letters, digits, . _ - and /)`);
  return { registry, repository: path, tag, digest };
}

/** The reference without tag or digest: what a FlowSource's spec.oci.url names. */
export const repositoryUrl = (r: OciReference): string => `oci://${r.registry}/${r.repository}`;
