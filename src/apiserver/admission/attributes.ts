import type { UserInfo } from '../auth/user-info.js';
import type { JsonObject, ResourceType } from '../registry/types.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE';

/**
 * One write as admission sees it (k8s.io/apiserver/pkg/admission.Attributes): the object after
 * decoding and defaulting, the stored one it replaces, and who asks.
 */
export interface AdmissionAttributes {
  t: ResourceType;
  operation: AdmissionOperation;
  /** '' for a cluster-scoped resource. */
  namespace: string;
  name: string;
  subresource: string;
  object: JsonObject | undefined;
  oldObject: JsonObject | undefined;
  dryRun: boolean;
  user: UserInfo | undefined;
  /** CreateOptions, UpdateOptions, PatchOptions or DeleteOptions as the request gave them. */
  options: JsonObject;
}

/** What admission gives back: the (possibly mutated) object and the warnings for `Warning:` headers. */
export interface AdmissionOutcome {
  object: JsonObject | undefined;
  warnings: string[];
}
