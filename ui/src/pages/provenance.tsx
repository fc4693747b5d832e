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
      {p.commit ? <> at <a href={paths.source(ns, name, p.commit)} data-commit-link={p.commit}><code>{shortSha(p.commit)}</code></a></> : p.revision ? <> at <code>{p.revision}</code></> : null}
      {p.sourceState ? <> <SourceStateBadge state={p.sourceState} /></> : null}
    </span>
  );
}

export function FlowLink({ flow }: { flow: string }) {
  const [ns, name] = splitName(flow);
  return <a href={paths.flow(ns, name)}>Flow {flow}</a>;
}
