/**
 * Debian's Chromium driven by playwright-core (no browser download: `.ci/run` installs the
 * `chromium` package where it is missing). Where it is still missing, the browser suites skip and
 * say why; nothing else in the suite skips.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const executablePath = '/usr/bin/chromium';

/** Why the browser suites cannot run here; undefined where they can. */
export const noChromium: string | undefined = existsSync(executablePath)
  ? undefined
  : `${executablePath} is not installed (apt-get install chromium; .ci/run does): the browser tests are skipped`;

if (noChromium !== undefined) console.warn(`skipped: ${noChromium}`);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** What a page did that a test asserts on: console errors, uncaught errors, every URL requested. */
export interface PageWatch {
  readonly errors: string[];
  readonly requests: string[];
}

export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = { errors: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') watch.errors.push(message.text());
  });
  page.on('pageerror', (err) => watch.errors.push(err.message));
  page.on('request', (request) => watch.requests.push(request.url()));
  return watch;
}

/** Screenshots the tests keep (git-ignored), one directory per suite. */
const artifactsDir = new URL('../../test-artifacts/', import.meta.url).pathname;

export async function screenshot(page: Page, suite: string, name: string): Promise<void> {
  const dir = join(artifactsDir, suite);
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
