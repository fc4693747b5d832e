// History routing under /ui/: every page has its own URL, links are real <a href>s (open in a new
// tab, copy, share) and the back button works.
import { useEffect, useState } from 'preact/hooks';
import type { ObjectKey } from '../../src/ui-server/types.ts';

export const BASE = '/ui/';

export type Route =
  | { page: 'overview' }
  | { page: 'source'; namespace: string; name: string; commit?: string }
  | { page: 'commit'; namespace: string; name: string; commit: string }
  | { page: 'previews'; namespace: string; name: string }
  | { page: 'preview'; namespace: string; name: string; pr: number }
  | { page: 'flow'; namespace: string; name: string; commit?: string }
  | { page: 'object'; key: ObjectKey }
  | { page: 'operator'; name: string }
  | { page: 'missing'; path: string };

const seg = encodeURIComponent;
/** Cluster-scoped objects have no namespace; the path keeps a placeholder so it stays positional. */
const NO_NAMESPACE = '_';

export const paths = {
  overview: (): string => BASE,
  source: (namespace: string, name: string, commit?: string): string =>
    `${BASE}sources/${seg(namespace)}/${seg(name)}${commit ? `#${commit}` : ''}`,
  commit: (namespace: string, name: string, commit: string): string =>
    `${BASE}sources/${seg(namespace)}/${seg(name)}/commits/${seg(commit)}`,
  previews: (namespace: string, name: string): string => `${BASE}sources/${seg(namespace)}/${seg(name)}/previews`,
  preview: (namespace: string, name: string, pr: number): string =>
    `${BASE}sources/${seg(namespace)}/${seg(name)}/previews/${pr}`,
  /** `commit`: the file as that commit has it (a rejected one); `line`: that line, highlighted. */
  flow: (namespace: string, name: string, at: { commit?: string | undefined; line?: number } = {}): string =>
    `${BASE}flows/${seg(namespace)}/${seg(name)}${at.commit ? `?commit=${seg(at.commit)}` : ''}${at.line ? `#L${at.line}` : ''}`,
  operator: (name: string): string => `${BASE}operators/${seg(name)}`,
  object: (k: ObjectKey): string =>
    `${BASE}objects/${seg(k.apiVersion)}/${seg(k.kind)}/${seg(k.namespace ?? NO_NAMESPACE)}/${seg(k.name)}`,
  /** The page that shows it best: a FlowSource's or a Flow's own page, else the object page. */
  best: (k: ObjectKey): string => {
    const ours = k.apiVersion.startsWith('flowops.io/') && k.namespace;
    if (ours && k.kind === 'FlowSource') return paths.source(k.namespace!, k.name);
    if (ours && k.kind === 'Flow') return paths.flow(k.namespace!, k.name);
    if (k.apiVersion.startsWith('dcontroller.io/') && k.kind === 'Operator') return paths.operator(k.name);
    return paths.object(k);
  },
};

export function parseRoute(pathname: string, search = ''): Route {
  if (!pathname.startsWith(BASE)) return { page: 'missing', path: pathname };
  const parts = pathname.slice(BASE.length).split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { page: 'overview' };
  if (parts[0] === 'sources' && parts.length === 3) return { page: 'source', namespace: parts[1]!, name: parts[2]! };
  if (parts[0] === 'sources' && parts[3] === 'commits' && parts.length === 5)
    return { page: 'commit', namespace: parts[1]!, name: parts[2]!, commit: parts[4]! };
  if (parts[0] === 'sources' && parts[3] === 'previews' && parts.length === 4)
    return { page: 'previews', namespace: parts[1] ?? '', name: parts[2] ?? '' };
  if (parts[0] === 'sources' && parts[3] === 'previews' && parts.length === 5 && /^[1-9]\d*$/.test(parts[4] ?? ''))
    return { page: 'preview', namespace: parts[1] ?? '', name: parts[2] ?? '', pr: Number(parts[4]) };
  if (parts[0] === 'flows' && parts.length === 3) {
    const commit = new URLSearchParams(search).get('commit');
    return { page: 'flow', namespace: parts[1]!, name: parts[2]!, ...(commit ? { commit } : {}) };
  }
  if (parts[0] === 'operators' && parts.length === 2) return { page: 'operator', name: parts[1]! };
  if (parts[0] === 'objects' && parts.length === 5) {
    const [, apiVersion, kind, namespace, name] = parts as [string, string, string, string, string];
    return { page: 'object', key: { apiVersion, kind, name, ...(namespace !== NO_NAMESPACE ? { namespace } : {}) } };
  }
  return { page: 'missing', path: pathname };
}

export function navigate(href: string): void {
  history.pushState(null, '', href);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** The current route; re-renders on back/forward and on in-app navigation. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname, location.search));
  useEffect(() => {
    const onPop = (): void => setRoute(parseRoute(location.pathname, location.search));
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  return route;
}

/** Plain left clicks on in-app links navigate without a reload; anything else is the browser's. */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element).closest('a');
    if (!a || a.target || !a.href.startsWith(location.origin + BASE) || a.pathname.startsWith(`${BASE}api/`)) return;
    const samePage = a.pathname + a.search === location.pathname + location.search;
    // A link to a spot on this page (the skip link) is the browser's to follow.
    if (samePage && a.hash) return;
    e.preventDefault();
    if (!samePage) navigate(a.pathname + a.search + a.hash);
  });
}
