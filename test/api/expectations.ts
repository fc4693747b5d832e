import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURES = join(import.meta.dirname, 'fixtures');
export const INVALID = join(FIXTURES, 'invalid');

/**
 * Each invalid fixture states its own expected errors in `# expect: LINE: field: problem`
 * comments at the top, so the line numbers can be checked by opening the file.
 */
export function expectedLines(file: string, shownAs: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((l) => {
      const m = /^# expect: (.*)$/.exec(l);
      return m ? [`${shownAs}:${m[1]}`] : [];
    });
}

export function invalidFixtures(): string[] {
  return readdirSync(INVALID)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
}
