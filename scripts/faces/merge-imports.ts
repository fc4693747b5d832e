// Merges the named imports of one file that come from the same module into one statement. Routing
// imports through a face turns `../kube/client.js` and `../kube/types.js` into two imports of
// `../kube/index.js`; Biome's import organizer would merge them but also re-sort every file's
// imports (and with them the order modules with top-level effects run in), so it stays off.

/** `import { a, type B } from '…';` or `import type { … } from '…';`, on lines of its own. */
const NAMED_IMPORT = /^import (type )?\{([^}]*)\} from '([^']+)';\n/gm;

interface Statement {
  at: number;
  length: number;
  specifier: string;
  /** Each name as written in a merged list: `type X` for a type, `a as b` as it was. */
  names: string[];
}

function statementsOf(text: string): Statement[] {
  const out: Statement[] = [];
  for (const m of text.matchAll(NAMED_IMPORT)) {
    const typeOnly = m[1] !== undefined;
    const names = (m[2] ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n.length > 0)
      .map((n) => (typeOnly && !n.startsWith('type ') ? `type ${n}` : n));
    out.push({ at: m.index, length: m[0].length, specifier: m[3] ?? '', names });
  }
  return out;
}

/** The text with each module's named imports in its first statement; unchanged when none repeat. */
export function mergeImports(text: string): string {
  const bySpecifier = new Map<string, Statement[]>();
  for (const s of statementsOf(text)) bySpecifier.set(s.specifier, [...(bySpecifier.get(s.specifier) ?? []), s]);
  const edits: Array<{ at: number; length: number; text: string }> = [];
  for (const [specifier, list] of bySpecifier) {
    if (list.length < 2) continue;
    const names = [...new Set(list.flatMap((s) => s.names))];
    const allTypes = names.every((n) => n.startsWith('type '));
    const written = allTypes ? names.map((n) => n.slice('type '.length)) : names;
    const merged = `import ${allTypes ? 'type ' : ''}{ ${written.join(', ')} } from '${specifier}';\n`;
    const [first, ...rest] = list;
    if (!first) continue;
    edits.push({ at: first.at, length: first.length, text: merged });
    for (const s of rest) edits.push({ at: s.at, length: s.length, text: '' });
  }
  let out = text;
  for (const e of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, e.at) + e.text + out.slice(e.at + e.length);
  return out;
}
