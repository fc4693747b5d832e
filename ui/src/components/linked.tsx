// A message whose `file:line` (a rejection's `flow.yaml:20: …`, a template error's `flow.yaml:34:49`)
// links to that line where a page shows the file. Only paths the caller knows become links; the
// rest stays text, and all of it is text: nothing in a message is ever markup.

const POSITION = /([\w./-]+\.ya?ml):(\d+)(?::(\d+))?/g;

/** The link for `path` at `line`, or undefined when no page shows that file. */
export type LineHref = (path: string, line: number) => string | undefined;

/** Messages are bounded where they are shown: a status holds up to a few kilobytes. */
const MAX_SHOWN = 4000;

export function LinkedMessage({ text, hrefOf, cls = 'message' }: { text: string; hrefOf: LineHref; cls?: string }) {
  const shown =
    text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}… (${text.length - MAX_SHOWN} more characters)` : text;
  const parts: Array<string | { label: string; href: string }> = [];
  let at = 0;
  for (const m of shown.matchAll(POSITION)) {
    const href = hrefOf(m[1] ?? '', Number(m[2]));
    if (!href || m.index === undefined) continue;
    parts.push(shown.slice(at, m.index), { label: m[0], href });
    at = m.index + m[0].length;
  }
  parts.push(shown.slice(at));
  return (
    <span class={cls}>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          p
        ) : (
          <a key={i} href={p.href} data-line-link={p.href}>
            {p.label}
          </a>
        ),
      )}
    </span>
  );
}

/** The line numbers `text` names in `path` (`path:20`, `path:34:49`). */
export function linesIn(text: string | undefined, path: string): number[] {
  if (!text) return [];
  return [...text.matchAll(POSITION)]
    .filter((m) => m[1] === path || path.endsWith(`/${m[1] ?? ''}`))
    .map((m) => Number(m[2]));
}
