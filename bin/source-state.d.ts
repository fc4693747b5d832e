/** See source-state.js: the newest mtime and the number of .ts files under a folder. */
export function sourceState(dir: string): { newest: number; files: number };
