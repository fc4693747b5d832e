import type { Authorizable } from '../attributes.js';
import type { PolicyIndex } from './policy-index.js';
import { ruleAllows } from './rules.js';
import { MASTERS } from '../user-info.js';

export interface Decision {
  allowed: boolean;
  /** Why not, when a binding could not be resolved (kube's "RBAC: …" reason); empty otherwise. */
  reason: string;
}

/** The RBAC authorizer: allowed when any rule bound to the user (or a group of theirs) in scope allows it; nothing is ever denied explicitly. */
export class RbacAuthorizer {
  constructor(readonly index: PolicyIndex) {}

  authorize(a: Authorizable): Decision {
    // kube-apiserver's privileged group, allowed before any authorizer runs (authorizerfactory's
    // privilegedGroups); the bootstrap policy also binds it to cluster-admin.
    if (a.user.groups.includes(MASTERS)) return { allowed: true, reason: '' };
    const { rules, errors } = this.index.rulesFor(a.user, a.resource?.namespace ?? '');
    for (const group of rules) for (const rule of group) if (ruleAllows(a, rule)) return { allowed: true, reason: '' };
    // utilerrors.NewAggregate's text: one error as it is, several in brackets.
    const reason = errors.length === 0 ? '' : `RBAC: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`;
    return { allowed: false, reason };
  }
}
