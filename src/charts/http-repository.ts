import { ChartError } from './errors.js';
import { httpGet, type BasicCredentials } from './http-get.js';
import { parseIndex, resolveEntry } from './http-index.js';
import { PROVENANCE_LIMIT } from './provenance.js';

export const INDEX_LIMIT = 64 * 1024 * 1024;
export const CHART_LIMIT = 64 * 1024 * 1024;

export interface HttpChartOptions {
  repository: string;
  name: string;
  version: string;
  credentials?: BasicCredentials | undefined;
  ca?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** A version resolved from index.yaml: where its .tgz is and the digest it must hash to. */
export interface ResolvedHttpChart {
  version: string;
  digest: string;
  url: URL;
}

/** The repository URL as shown: user info dropped, so a password written into it never leaks. */
export function shownRepository(repository: string): string {
  try {
    const u = new URL(repository);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return repository.replace(/\/\/[^@/]*@/, '//');
  }
}

/** The repository's base: chart URLs in index.yaml that are relative resolve against it, as Helm does. */
const baseOf = (repository: string): URL => new URL(repository.endsWith('/') ? repository : `${repository}/`);

export async function resolveHttpChart(o: HttpChartOptions): Promise<ResolvedHttpChart> {
  const where = shownRepository(o.repository);
  const base = baseOf(o.repository);
  const get = {
    credentials: o.credentials ? { origin: base.origin, basic: o.credentials } : undefined,
    ca: o.ca,
    signal: o.signal,
  };
  const text = new TextDecoder().decode(
    await httpGet(new URL('index.yaml', base), { ...get, limit: INDEX_LIMIT, what: `${where}/index.yaml` }),
  );
  const entry = resolveEntry(parseIndex(text, where), o.name, o.version, where);
  if (!entry.digest) {
    throw new ChartError(
      'ChartInvalid',
      `${where}: index.yaml gives no digest for ${o.name} ${entry.version}, so it cannot be checked`,
    );
  }
  const first = entry.urls[0] ?? '';
  let url: URL;
  try {
    url = new URL(first, base);
  } catch {
    throw new ChartError('ChartInvalid', `${where}: ${o.name} ${entry.version} has an invalid URL in index.yaml`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ChartError(
      'ChartInvalid',
      `${where}: ${o.name} ${entry.version} is at a ${url.protocol} URL, not http(s)`,
    );
  }
  return { version: entry.version, digest: entry.digest, url };
}

/**
 * The chart's provenance file, `<chart URL>.prov` as Helm's downloader asks for it; a 404 is
 * ChartProvenanceMissing. Returns the file name it vouches for too (the URL's last segment, the
 * name `helm package --sign` signed).
 */
export async function fetchHttpProvenance(
  o: HttpChartOptions,
  chart: ResolvedHttpChart,
): Promise<{ text: string; file: string }> {
  const base = baseOf(o.repository);
  const what = `${shownRepository(o.repository)}: ${o.name} ${chart.version}`;
  const url = new URL(`${chart.url.toString()}.prov`);
  let bytes: Uint8Array;
  try {
    bytes = await httpGet(url, {
      credentials: o.credentials ? { origin: base.origin, basic: o.credentials } : undefined,
      ca: o.ca,
      signal: o.signal,
      limit: PROVENANCE_LIMIT,
      what: `${what} provenance`,
    });
  } catch (e) {
    if (e instanceof ChartError && e.code === 'ChartNotFound') {
      throw new ChartError('ChartProvenanceMissing', `${what}: verification asked for, and no provenance file (.prov)`);
    }
    throw e;
  }
  const file = decodeURIComponent(chart.url.pathname.split('/').pop() ?? '');
  return { text: new TextDecoder().decode(bytes), file };
}

/** The .tgz bytes; the caller checks them against the resolved digest. */
export function fetchHttpChart(o: HttpChartOptions, chart: ResolvedHttpChart): Promise<Uint8Array> {
  const base = baseOf(o.repository);
  return httpGet(chart.url, {
    credentials: o.credentials ? { origin: base.origin, basic: o.credentials } : undefined,
    ca: o.ca,
    signal: o.signal,
    limit: CHART_LIMIT,
    what: `${shownRepository(o.repository)}: ${o.name} ${chart.version}`,
  });
}
