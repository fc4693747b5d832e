// The change stream is fed by one set of watches made with FlowOps' own rights; a signed-in user
// is told only of changes to objects they may `get` (a name is information too). Each answer is
// the API server's own (SelfSubjectAccessReview made with the user's token), kept a minute per
// (user, kind, namespace), so a burst of changes costs one review per kind.

import { LRUCache } from 'lru-cache';
import type { KubeClient } from '../kube/index.js';
import type { ChangeMessage } from './types.js';
import type { UiUser } from './sessions.js';

const ANSWER_TTL_MS = 60_000;

export class ChangeAccess {
  private readonly answers = new LRUCache<string, Promise<boolean>>({ max: 10_000, ttl: ANSWER_TTL_MS });
  private readonly users = new WeakMap<UiUser, string>();
  private nextUser = 0;

  /** `cluster` resolves kinds to resources (discovery); the reviews go out with the user's token. */
  constructor(private readonly cluster: KubeClient) {}

  async visible(user: UiUser, changes: ChangeMessage[]): Promise<ChangeMessage[]> {
    const allowed = await Promise.all(changes.map((c) => this.mayGet(user, c)));
    return changes.filter((_, i) => allowed[i]);
  }

  private mayGet(user: UiUser, c: ChangeMessage): Promise<boolean> {
    let id = this.users.get(user);
    if (id === undefined) this.users.set(user, (id = String(this.nextUser++)));
    const key = `${id}\u001f${c.apiVersion}\u001f${c.kind}\u001f${c.namespace ?? ''}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = this.review(user.kube, c).catch(() => false);
      this.answers.set(key, answer);
    }
    return answer;
  }

  private async review(kube: KubeClient, c: ChangeMessage): Promise<boolean> {
    const r = await this.cluster.resource(c.apiVersion, c.kind);
    const body = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: {
        resourceAttributes: {
          verb: 'get',
          group: r.group,
          resource: r.plural,
          ...(r.namespaced && c.namespace ? { namespace: c.namespace } : {}),
        },
      },
    };
    const answer = await kube.rest.json<{ status?: { allowed?: boolean } }>(
      'POST',
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      { body },
    );
    return answer.status?.allowed === true;
  }
}
