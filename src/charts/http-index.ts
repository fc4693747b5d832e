import { parse } from 'yaml';
import { z } from 'zod';
import { ChartError } from './errors.js';
import { highestMatch } from './versions.js';

/** One chart version of a repository's index.yaml, as `helm repo index` writes it. */
export interface IndexEntry {
  name: string;
  version: string;
  urls: string[];
  /** sha256 of the .tgz in hex, without the "sha256:" prefix (Helm's format); absent in some old indexes. */
  digest?: string | undefined;
}

const entrySchema = z
  .object({
    name: z.string(),
    version: z.string(),
    urls: z.array(z.string()).min(1),
    digest: z.string().optional(),
  })
  .loose();
const indexSchema = z
  .object({ apiVersion: z.string().optional(), entries: z.record(z.string(), z.array(z.unknown())) })
  .loose();

const HEX_DIGEST = /^(?:sha256:)?([0-9a-f]{64})$/;

/** Parses index.yaml text; `where` names the repository in errors. */
export function parseIndex(text: string, where: string): Map<string, IndexEntry[]> {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch (e) {
    throw new ChartError(
      'ChartInvalid',
      `${where}: index.yaml is not YAML: ${e instanceof Error ? e.message.split('\n')[0] : ''}`,
    );
  }
  const index = indexSchema.safeParse(doc);
  if (!index.success) throw new ChartError('ChartInvalid', `${where}: index.yaml has no "entries" map of charts`);
  const out = new Map<string, IndexEntry[]>();
  for (const [name, raw] of Object.entries(index.data.entries)) {
    // One malformed version does not hide the others, as Helm skips it with a warning.
    out.set(
      name,
      raw.flatMap((e) => {
        const parsed = entrySchema.safeParse(e);
        return parsed.success ? [parsed.data] : [];
      }),
    );
  }
  return out;
}

/** The highest version of `name` the constraint admits, with its digest in sha256:<hex> form. */
export function resolveEntry(
  index: Map<string, IndexEntry[]>,
  name: string,
  constraint: string,
  where: string,
): IndexEntry {
  const entries = index.get(name);
  if (!entries?.length) throw new ChartError('ChartNotFound', `${where}: no chart named "${name}" in index.yaml`);
  const version = highestMatch(
    entries.map((e) => e.version),
    constraint,
  );
  const entry = version === undefined ? undefined : entries.find((e) => e.version === version);
  if (!entry) {
    const known = entries
      .map((e) => e.version)
      .slice(0, 10)
      .join(', ');
    throw new ChartError(
      'ChartVersionNotFound',
      `${where}: chart "${name}" has no version matching "${constraint}" (has ${known})`,
    );
  }
  const hex = entry.digest === undefined ? undefined : HEX_DIGEST.exec(entry.digest)?.[1];
  if (entry.digest !== undefined && hex === undefined) {
    throw new ChartError(
      'ChartInvalid',
      `${where}: chart "${name}" ${entry.version} has digest "${entry.digest}", not sha256 hex`,
    );
  }
  return { ...entry, ...(hex ? { digest: `sha256:${hex}` } : {}) };
}
