import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it), or FLOWOPS_CHROMIUM; undefined when neither is there. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.FLOWOPS_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (p): p is string => Boolean(p),
  );
  return candidates.find((p) => existsSync(p));
}

/** Why the browser tests cannot run here, printed when they are skipped; undefined when they can. */
export function browserSkipReason(): string | undefined {
  return chromiumPath()
    ? undefined
    : 'no chromium (apt-get install -y chromium, or set FLOWOPS_CHROMIUM): the web view browser tests are skipped';
}

/** Headless chromium driven by playwright-core; --no-sandbox because CI runs as root. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: chromiumPath()!,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}
