// A Flow's watched objects, however many: not-ready ones first, a search (`/` focuses it),
// not-ready, failing and namespace filters, and a page of rows at a time, so a Flow of 10,000
// objects renders a hundred rows rather than ten thousand.
import { useMemo, useState } from 'preact/hooks';
import type { WatchedObject } from '../../../src/ui-server/types.ts';
import { ReadyBadge } from './badges.tsx';
import { LinkedMessage, type LineHref } from './linked.tsx';
import { paths } from '../router.ts';

const PAGE = 100;
// The `/` hint is for keyboards; a touch screen has none (as styles.css hides the key hints).
const touchOnly = (): boolean => matchMedia('(hover: none) and (pointer: coarse)').matches;
const RANK = { False: 0, Unknown: 1, True: 2 } as const;
const nameOf = (o: WatchedObject): string => `${o.key.namespace ? `${o.key.namespace}/` : ''}${o.key.name}`;
// Names are DNS labels: a code-unit order is their order, and ten thousand compare fast.
const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function ObjectList({ objects, kind, hrefOf }: { objects: WatchedObject[]; kind: string; hrefOf: LineHref }) {
  const [query, setQuery] = useState('');
  const [notReadyOnly, setNotReadyOnly] = useState(false);
  const [failingOnly, setFailingOnly] = useState(false);
  const [namespace, setNamespace] = useState('');
  const [shown, setShown] = useState(PAGE);
  const namespaces = useMemo(() => [...new Set(objects.map((o) => o.key.namespace ?? ''))].sort(), [objects]);
  const sorted = useMemo(
    () => [...objects].sort((a, b) => RANK[a.ready.status] - RANK[b.ready.status] || byName(nameOf(a), nameOf(b))),
    [objects],
  );
  const q = query.trim().toLowerCase();
  const matching = sorted.filter(
    (o) =>
      (!notReadyOnly || o.ready.status !== 'True') &&
      (!failingOnly || o.failing === true) &&
      (!namespace || o.key.namespace === namespace) &&
      (!q || nameOf(o).toLowerCase().includes(q) || o.ready.message.toLowerCase().includes(q)),
  );
  const notReady = objects.filter((o) => o.ready.status !== 'True').length;
  const failing = objects.filter((o) => o.failing).length;
  if (objects.length === 0) return <p class="muted">No {kind} objects.</p>;
  return (
    <>
      <div class="filters" role="search" aria-label="Watched objects">
        <label>
          <span class="sr-only">Search watched objects</span>
          <input
            type="search"
            data-search
            placeholder={touchOnly() ? 'Search' : 'Search (press /)'}
            value={query}
            maxLength={200}
            onInput={(e) => {
              setQuery((e.target as HTMLInputElement).value);
              setShown(PAGE);
            }}
          />
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={notReadyOnly}
            onChange={(e) => {
              setNotReadyOnly((e.target as HTMLInputElement).checked);
              setShown(PAGE);
            }}
          />{' '}
          Not ready only ({notReady})
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={failingOnly}
            onChange={(e) => {
              setFailingOnly((e.target as HTMLInputElement).checked);
              setShown(PAGE);
            }}
          />{' '}
          Failing only ({failing})
        </label>
        {namespaces.length > 1 ? (
          <label>
            <span class="sr-only">Namespace</span>
            <select
              value={namespace}
              onChange={(e) => {
                setNamespace((e.target as HTMLSelectElement).value);
                setShown(PAGE);
              }}
            >
              <option value="">All namespaces</option>
              {namespaces.map((n) => (
                <option key={n} value={n}>
                  {n || '(cluster)'}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <span class="muted" role="status" data-count>
          {matching.length === objects.length
            ? `${objects.length} objects`
            : `${matching.length} of ${objects.length} objects`}
          {matching.length > shown ? `, first ${shown} shown` : ''}
        </span>
      </div>
      {matching.length === 0 ? (
        <p class="muted">No object matches.</p>
      ) : (
        <table aria-labelledby="watched-h" class="cards">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Ready</th>
              <th scope="col">Why</th>
              <th scope="col" class="num">
                Children
              </th>
            </tr>
          </thead>
          <tbody>
            {matching.slice(0, shown).map((o) => (
              <tr
                key={nameOf(o)}
                data-object={o.key.name}
                data-ready-row={o.ready.status}
                data-failing={o.failing ? '' : undefined}
              >
                <td data-label="Name">
                  <a data-row href={paths.object(o.key)}>
                    {nameOf(o)}
                  </a>
                </td>
                <td data-label="Ready">
                  <ReadyBadge ready={o.ready} />
                </td>
                <td data-label="Why">
                  {o.ready.status === 'True' ? '' : <LinkedMessage text={o.ready.message} hrefOf={hrefOf} />}
                </td>
                <td data-label="Children" class="num">
                  {o.children}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {matching.length > shown ? (
        <button type="button" class="more" onClick={() => setShown(shown + PAGE)}>
          Show {Math.min(PAGE, matching.length - shown)} more
        </button>
      ) : null}
    </>
  );
}
