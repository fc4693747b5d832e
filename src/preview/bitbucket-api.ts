// Bitbucket Cloud's side of a preview (API 2.0): open pull requests, their comments, a comment
// written or edited. Its lists are paginated objects (`values`, `next`), a comment's text is
// `content.raw`, and a pull request names its head by the source branch and a 12-digit commit
// hash (the full one is read from the fetched commit). Bitbucket keeps no ref for a request's head
// in the base repository, so a fork's head is fetched from the fork (`headUrl`).
// https://developer.atlassian.com/cloud/bitbucket/rest/api-group-pullrequests/ ; each request is
// checked against Atlassian's OpenAPI description in test/preview/ (npm run gen:bitbucket-openapi).

import { z } from 'zod';

/** Bitbucket's generic pagination (https://developer.atlassian.com/cloud/bitbucket/rest/intro/#pagination). */
export const BITBUCKET_PAGE = 100;

const repoRef = z.object({ full_name: z.string() }).partial();
const side = z.object({
  branch: z.object({ name: z.string() }),
  commit: z.object({ hash: z.string().regex(/^[0-9a-f]{7,40}$/) }),
  repository: repoRef.optional(),
});
export const bitbucketPulls = z.object({
  values: z.array(z.object({ id: z.number().int(), source: side, destination: side.partial({ commit: true }) })),
});
const comment = z.object({
  id: z.number().int(),
  content: z.object({ raw: z.string().nullable().optional() }).optional(),
});
export const bitbucketComments = z.object({ values: z.array(comment), next: z.string().optional() });
export const bitbucketComment = comment;

export interface BitbucketPull {
  number: number;
  headSha: string;
  headRef: string;
  /** The fork's repository path (workspace/repo) when the head is not in the base repository. */
  headRepo?: string;
  base: string;
}

export function bitbucketPullsOf(data: z.infer<typeof bitbucketPulls>): BitbucketPull[] {
  return data.values.map((p) => {
    const fork = p.source.repository?.full_name;
    const same = !fork || fork === p.destination.repository?.full_name;
    return {
      number: p.id,
      headSha: p.source.commit.hash,
      headRef: `refs/heads/${p.source.branch.name}`,
      ...(same ? {} : { headRepo: fork }),
      base: p.destination.branch.name,
    };
  });
}

/** The body Bitbucket takes for a comment: `type` is required by its schema's base object. */
export const bitbucketCommentBody = (body: string): unknown => ({
  type: 'pullrequest_comment',
  content: { raw: body },
});
