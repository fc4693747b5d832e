import * as fs from 'node:fs';
import http from 'isomorphic-git/http/node';

/**
 * What every isomorphic-git call of one source shares: the node fs and http, the repository folder
 * (no work tree is ever written; objects live in `<dir>/.git`), and one object cache that is reset
 * after each fetch: isomorphic-git's cache object makes repeated reads of one pack fast, and
 * dropping it after a fetch keeps the new pack's objects from being missed and memory from growing.
 */
export interface GitContext {
  fs: typeof fs;
  http: typeof http;
  dir: string;
  gitdir: string;
  cache: object;
}

export function gitContext(dir: string): GitContext {
  return { fs, http, dir, gitdir: `${dir}/.git`, cache: {} };
}
