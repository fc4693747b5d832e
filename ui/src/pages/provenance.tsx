// Links that follow the flowops.io/* annotations back to the Flow, the owner and the commit.
import type { Provenance } from '../../../src/ui-server/types.ts';
import { SourceStateBadge } from '../components/badges.tsx';
import { shortSha } from '../components/time.tsx';
import { paths } from '../router.ts';

export const splitName = (nsName: string): [string, string] => {
  const i = nsName.indexOf('/');
  return i < 0 ? ['', nsName] : [nsName.slice(0, i), nsName.slice(i + 1)];
};

export function SourceLink({ p }: { p: Provenance }) {
  if (!p.source) return null;
  const [ns, name] = splitName(p.source);
  return (
    <span>
      <a href={paths.source(ns, name)}>FlowSource {p.source}</a>
      {p.commit ? (
        <>
          {' '}
          at{' '}
          <a href={paths.source(ns, name, p.commit)} data-commit-link={p.commit}>
            <code>{shortSha(p.commit)}</code>
          </a>
        </>
      ) : p.revision ? (
        <>
          {' '}
          at <code>{p.revision}</code>
        </>
      ) : null}
      {p.sourceState ? (
        <>
          {' '}
          <SourceStateBadge state={p.sourceState} />
        </>
      ) : null}
    </span>
  );
}

/** 7 to 12 characters name a commit in any repository this size; the whole revision is the link's title. */
const SHORT = 10;

/** A revision (`main@sha1:<40 hex>`) as its short commit, linked to that commit in `source`. */
export function RevisionLink({
  revision,
  source,
  commitPages,
}: {
  revision: string | undefined;
  source: string | undefined;
  commitPages: boolean;
}) {
  if (!revision) return null;
  const commit = /sha1:([0-9a-f]{40})$/.exec(revision)?.[1];
  if (!commit) return <code title={revision}>{revision.slice(0, 64)}</code>;
  if (!source) return <code title={revision}>{commit.slice(0, SHORT)}</code>;
  const [ns, name] = splitName(source);
  const href = commitPages ? paths.commit(ns, name, commit) : paths.source(ns, name, commit);
  return (
    <a href={href} title={revision} data-revision-link={commit}>
      <code>{commit.slice(0, SHORT)}</code>
    </a>
  );
}

export function FlowLink({ flow }: { flow: string }) {
  const [ns, name] = splitName(flow);
  return <a href={paths.flow(ns, name)}>Flow {flow}</a>;
}
