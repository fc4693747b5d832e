import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { SourceError } from '../errors.js';

/** Registry credentials as a docker config's `auths` entry gives them. */
export interface RegistryCredentials {
  username: string;
  password: string;
}

const entrySchema = z.object({
  auth: z.string().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
});
const configSchema = z.object({ auths: z.record(z.string(), entrySchema).optional() });

/** `https://host:port/v1/` and `host:port` both name host:port, as docker and Flux read the keys. */
const hostOf = (key: string): string => key.replace(/^[a-z]+:\/\//i, '').split('/')[0] ?? '';

/**
 * The credentials for `registry` in a docker config (`~/.docker/config.json`, or the
 * `.dockerconfigjson` key of a kubernetes.io/dockerconfigjson Secret). `where` names the file or
 * Secret in errors, which never quote the file's content. Credential helpers (credsStore,
 * credHelpers) are not run: only inline `auths` entries are read.
 */
export function credentialsFor(configText: string, registry: string, where: string): RegistryCredentials | undefined {
  let json: unknown;
  try {
    json = JSON.parse(configText);
  } catch {
    throw new SourceError('AuthRequired', `${where} is not JSON (expected a docker config with "auths")`);
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success)
    throw new SourceError('AuthRequired', `${where}: "auths" must map registries to {auth} or {username, password}`);
  const entry = Object.entries(parsed.data.auths ?? {}).find(([key]) => hostOf(key) === registry)?.[1];
  if (!entry) return undefined;
  if (entry.username !== undefined && entry.password !== undefined)
    return { username: entry.username, password: entry.password };
  if (!entry.auth)
    throw new SourceError('AuthRequired', `${where}: the entry for ${registry} has neither auth nor username/password`);
  const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0)
    throw new SourceError('AuthRequired', `${where}: the auth of ${registry} is not base64 of user:password`);
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The CLI's docker config: $DOCKER_CONFIG/config.json, else ~/.docker/config.json; undefined when absent. */
export function localCredentials(registry: string): RegistryCredentials | undefined {
  const file = join(process.env.DOCKER_CONFIG ?? join(homedir(), '.docker'), 'config.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return credentialsFor(text, registry, file);
}
