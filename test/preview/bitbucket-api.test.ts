import { describe, expect, it } from 'vitest';
import { readPullRequests } from '../../src/preview/forge-api.js';

// A Bitbucket pull request's head: the source branch, in the base repository or in a fork (which
// Bitbucket, unlike GitHub, GitLab and Gitea, keeps no ref of in the base repository).
describe("Bitbucket Cloud's pull requests, as a preview reads them", () => {
  const side = (branch: string, repo: string, hash = 'abcdef012345'): unknown => ({
    branch: { name: branch },
    commit: { hash },
    repository: { full_name: repo },
  });
  const answer = JSON.stringify({
    values: [
      { id: 1, source: side('feature', 'acme/flows'), destination: side('main', 'acme/flows') },
      { id: 2, source: side('fix', 'someone/flows-fork'), destination: side('main', 'acme/flows') },
      { id: 3, source: side('other', 'acme/flows'), destination: side('release', 'acme/flows') },
    ],
  });

  it('keeps the requests into the branch, a fork named by its repository, the head by its short hash', () => {
    expect(readPullRequests('bitbucket', 'bb', answer, 'main')).toEqual([
      { number: 1, headSha: 'abcdef012345', headRef: 'refs/heads/feature' },
      { number: 2, headSha: 'abcdef012345', headRef: 'refs/heads/fix', headRepo: 'someone/flows-fork' },
    ]);
  });

  it('an answer of another shape is a BadForgeAnswer naming the field', () => {
    expect(() => readPullRequests('bitbucket', 'bb', JSON.stringify({ values: [{ id: 'x' }] }), 'main')).toThrow(
      /provider bb: pull requests: unexpected answer at values\.0\.id/,
    );
  });
});
