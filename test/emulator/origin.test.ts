/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- responses are arbitrary JSON read member by member */
/**
 * The addresses in answers (`uri`, `next_page_uri`) are where the client sent its request: a client
 * behind a port-forward or a proxy follows them back through it, never to the address the emulator
 * listens on.
 */
import { describe, expect, it } from 'vitest';
import { startAccount, type TestAccount } from '../support/account.js';
import { startPortForward, startReverseProxy } from '../support/forwarders.js';
import { startServe } from '../support/cli.js';
import { callEmulator } from './harness.js';

async function createPolicies(account: TestAccount, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push((await callEmulator(account, 'POST', '/ip_policies', { description: `p${i}` })).body.id);
  }
  return ids;
}

interface Page {
  readonly ip_policies: ReadonlyArray<{ readonly id: string; readonly uri: string }>;
  readonly uri: string;
  readonly next_page_uri: string | null;
}

/** Every page of the list from `first`, following `next_page_uri` as a client does. */
async function followPages(account: TestAccount, first: string): Promise<Page[]> {
  const pages: Page[] = [];
  let next: string | null = first;
  while (next !== null) {
    const page = await callEmulator(account, 'GET', next);
    expect(page.status).toBe(200);
    pages.push(page.body);
    next = page.body.next_page_uri;
  }
  return pages;
}

describe('addresses in answers', () => {
  it('through a port-forward on another port, paging follows next_page_uri to the end', async () => {
    await using account = await startAccount();
    const ids = await createPolicies(account, 7);
    // Read directly first: a response cached for one origin is not served to another.
    expect((await callEmulator(account, 'GET', `/ip_policies/${ids[0]}`)).body.uri).toBe(
      `${account.url}/ip_policies/${ids[0]}`,
    );
    expect((await callEmulator(account, 'GET', '/ip_policies?limit=2')).body.next_page_uri).toMatch(
      `${account.url}/ip_policies?before_id=`,
    );
    await using forward = await startPortForward(account.url);
    const pages = await followPages(account, `${forward.url}/ip_policies?limit=2`);
    expect(pages).toHaveLength(4);
    const listed = pages.flatMap((p) => p.ip_policies.map((o) => o.id));
    expect(listed.sort()).toEqual([...ids].sort());
    for (const page of pages) {
      expect(page.uri).toBe(`${forward.url}/ip_policies`);
      for (const item of page.ip_policies) expect(item.uri).toBe(`${forward.url}/ip_policies/${item.id}`);
    }
    const created = await callEmulator(account, 'POST', `${forward.url}/ip_policies`, {});
    expect(created.body.uri).toBe(`${forward.url}/ip_policies/${created.body.id}`);
  });

  it('a certificate job completed through the control surface is answered at the origin it was called at', async () => {
    await using account = await startAccount();
    await using forward = await startPortForward(account.url);
    const created = await callEmulator(account, 'POST', `${forward.url}/reserved_domains`, {
      domain: 'issued.origin.example.org',
      certificate_management_policy: {},
    });
    expect(created.status).toBe(201);
    // The answer is rendered after the certificate is issued, past an await in the handler.
    const issued = await callEmulator(
      account,
      'POST',
      `${forward.url}/_emulator/certificate_jobs/${created.body.id}`,
      { outcome: 'issued' },
    );
    expect(issued.status).toBe(200);
    expect(issued.body.uri).toBe(`${forward.url}/reserved_domains/${created.body.id}`);
    expect(issued.body.certificate.uri).toBe(`${forward.url}/tls_certificates/${issued.body.certificate.id}`);
  });

  it('behind a trusted proxy, they use the X-Forwarded-Proto and -Host it sends', async () => {
    await using account = await startAccount({ trustProxy: true });
    const ids = await createPolicies(account, 5);
    await using proxy = await startReverseProxy(account.url, true);
    const pages = await followPages(account, `${proxy.url}/ip_policies?limit=2`);
    expect(pages.map((p) => p.uri)).toEqual(new Array<string>(3).fill(`${proxy.url}/ip_policies`));
    const listed = pages.flatMap((p) => p.ip_policies.map((o) => o.id));
    expect(listed.sort()).toEqual([...ids].sort());
    const https = await callEmulator(account, 'GET', `/ip_policies/${ids[0]}`, undefined, {
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'api.example.test, inner.proxy' },
    });
    expect(https.body.uri).toBe(`https://api.example.test/ip_policies/${ids[0]}`);
  });

  it('without --trust-proxy, X-Forwarded-* are ignored and the Host the proxy sent is used', async () => {
    await using account = await startAccount();
    const [id] = await createPolicies(account, 1);
    const forged = await callEmulator(account, 'GET', `/ip_policies/${id}`, undefined, {
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'attacker.example' },
    });
    expect(forged.body.uri).toBe(`${account.url}/ip_policies/${id}`);
    await using proxy = await startReverseProxy(account.url, true);
    const through = await callEmulator(account, 'GET', `${proxy.url}/ip_policies/${id}`);
    expect(through.body.uri).toBe(`${account.url}/ip_policies/${id}`);
  });

  it('acctsync serve --trust-proxy builds them from the proxy headers', async () => {
    const serve = await startServe(['--token', 't', '--trust-proxy'], process.cwd());
    try {
      const list = await callEmulator({ url: serve.url, token: 't' }, 'GET', '/api_keys', undefined, {
        headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'emulator.example.test:8443' },
      });
      expect(list.body.uri).toBe('https://emulator.example.test:8443/api_keys');
      expect(list.body.keys[0].uri).toBe(
        `https://emulator.example.test:8443/api_keys/${list.body.keys[0].id}`,
      );
    } finally {
      expect(await serve.stop('SIGTERM')).toBe(0);
    }
  });
});
