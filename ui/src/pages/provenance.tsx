// Links that follow the flowops.io/* annotations back to the Flow, the owner and the commit.
import type { Provenance } from '../../../src/ui-server/types.ts';
import { shortSha } from '../components/time.tsx';
import { paths } from '../router.ts';

const split = (nsName: string): [string, string] => {
  const i = nsName.indexOf('/');
  return i < 0 ? ['', nsName] : [nsName.slice(0, i), nsName.slice(i + 1)];
};

export function SourceLink({ p }: { p: Provenance }) {
  if (!p.source) return null;
  const [ns, name] = split(p.source);
  return (
    <span>
      <a href={paths.source(ns, name)}>FlowSource {p.source}</a>
      {p.commit ? <> at <a href={paths.source(ns, name, p.commit)} data-commit-link={p.commit}><code>{shortSha(p.commit)}</code></a></> : p.revision ? <> at <code>{p.revision}</code></> : null}
    </span>
  );
}

export function FlowLink({ flow }: { flow: string }) {
  const [ns, name] = split(flow);
  return <a href={paths.flow(ns, name)}>Flow {flow}</a>;
}
