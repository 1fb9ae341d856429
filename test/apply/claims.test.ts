/**
 * Against the emulator over real HTTP: changes that hand a unique value from one object to another
 * (domains, SSH keys, hostports between TLS and HTTPS edges), swaps of such values, and a reserved
 * domain's certificate removed, each converge in one sync with no 409, at parallelism 1 and 16.
 */
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Operation } from '../../src/plan-format/index.js';
import { startHarness, type Harness } from './harness.js';

const pkiDir = new URL('../fixtures/pki/', import.meta.url).pathname;
/** A fixture as the config names it: copied beside it, since a config reads only inside its root. */
const pki = (name: string) => `pki/${name}`;

/** A config directory holding `body` (after the version and scope lines) as account.yaml. */
async function configDir(body: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-claims-'));
  await cp(pkiDir, join(dir, 'pki'), { recursive: true });
  await writeFile(join(dir, 'account.yaml'), `version: 1\nscope: claims\n${body}`);
  return dir;
}

const certificates = `
tls_certificates:
  site-cert:
    certificate_pem: { file: ${pki('leaf-rsa.crt')} }
    private_key_pem: { file: ${pki('leaf-rsa.key')} }
`;

for (const parallelism of [1, 16]) {
  describe(`one sync converges at --parallelism ${parallelism}`, () => {
    let h: Harness;
    beforeEach(async () => {
      h = await startHarness();
    });
    afterEach(async () => {
      await h.close();
    });

    /**
     * Syncs each config in turn: every sync must succeed alone, with no 409, and leave nothing to
     * plan. Resolves with the last sync's operations, in plan order.
     */
    async function expectConverges(...bodies: string[]): Promise<readonly Operation[]> {
      let planned: readonly Operation[] = [];
      for (const body of bodies) {
        const dir = await configDir(body);
        h.requests.length = 0;
        const { computed, result } = await h.sync([dir], { parallelism });
        expect(result.operations.filter((r) => r.status !== 'done')).toEqual([]);
        expect(h.requests.filter((r) => r.status === 409)).toEqual([]);
        expect((await h.plan([dir])).plan.operations.map((op) => op.id)).toEqual([]);
        planned = computed.plan.operations;
      }
      return planned;
    }

    it('moves a domain to another name: the reservation is renamed, not released', async () => {
      const planned = await expectConverges(
        `reserved_domains:\n  blog: { domain: one.example.com }\n`,
        `reserved_domains:\n  site: { domain: one.example.com }\n`,
      );
      expect(planned.map((op) => [op.id, op.renamedFrom])).toEqual([
        ['rename reserved_domains/site', 'reserved_domains/blog'],
      ]);
    });

    it('moves a domain to another name, respelt: the renamed reservation is replaced, the old one first', async () => {
      const planned = await expectConverges(
        `reserved_domains:\n  blog: { domain: one.example.com }\n`,
        `reserved_domains:\n  site: { domain: ONE.example.com }\n`,
      );
      expect(planned.map((op) => op.id.split('#')[0])).toEqual([
        'delete reserved_domains/site',
        'create reserved_domains/site',
      ]);
    });

    it('moves a domain to another name with another kind: the old reservation goes first', async () => {
      const planned = await expectConverges(
        `reserved_domains:\n  blog: { domain: one.example.com }\n`,
        `agent_ingresses:\n  site: { domain: ONE.example.com }\n`,
      );
      expect(planned.map((op) => op.id.split('#')[0])).toEqual([
        'delete reserved_domains/blog',
        'create agent_ingresses/site',
      ]);
    });

    it('swaps domains between two reserved domains, deleting first', async () => {
      const planned = await expectConverges(
        `reserved_domains:\n  a: { domain: one.example.com }\n  b: { domain: two.example.com }\n`,
        `reserved_domains:\n  a: { domain: two.example.com }\n  b: { domain: one.example.com }\n`,
      );
      expect(planned.map((op) => op.id.split('#')[0])).toEqual([
        'delete reserved_domains/a',
        'delete reserved_domains/b',
        'create reserved_domains/a',
        'create reserved_domains/b',
      ]);
    });

    it('moves and swaps SSH keys between credentials', async () => {
      const ed = `{ file: ${pki('ssh-ed25519.pub')} }`;
      const rsa = `{ file: ${pki('ssh-rsa.pub')} }`;
      await expectConverges(
        `ssh_credentials:\n  alice: { public_key: ${ed} }\n  bob: { public_key: ${rsa} }\n`,
        `ssh_credentials:\n  alice: { public_key: ${rsa} }\n  bob: { public_key: ${ed} }\n`,
        `ssh_credentials:\n  carol: { public_key: ${rsa} }\n  bob: { public_key: ${ed} }\n`,
      );
    });

    it('moves hostports to a new TLS edge, between TLS and HTTPS edges, and swaps them', async () => {
      const planned = await expectConverges(
        `tls_edges:\n  db: { hostports: ['db.example.com:443', 'x.example.com:443'] }\n` +
          `https_edges:\n  web: { hostports: ['www.example.com:443'] }\n`,
        `tls_edges:\n  db2: { hostports: ['db.example.com:443'] }\n  db: { hostports: ['x.example.com:443'] }\n` +
          `https_edges:\n  web: { hostports: ['www.example.com:443'] }\n`,
        `tls_edges:\n  db2: { hostports: ['db.example.com:443'] }\n  db: { hostports: ['www.example.com:443'] }\n` +
          `https_edges:\n  web: { hostports: ['x.example.com:443'] }\n`,
      );
      const ids = planned.map((op) => op.id);
      expect(ids.slice(0, 2).sort()).toEqual(['release https_edges/web', 'release tls_edges/db']);
      expect(ids.slice(2).sort()).toEqual(['update https_edges/web', 'update tls_edges/db']);
    });

    it('moves a hostport from an HTTPS edge to a TLS edge, both updated: the release goes first', async () => {
      const planned = await expectConverges(
        `tls_edges:\n  db: { hostports: ['db.example.com:443'] }\n` +
          `https_edges:\n  web: { hostports: ['www.example.com:443', 'x.example.com:443'] }\n`,
        `tls_edges:\n  db: { hostports: ['db.example.com:443', 'x.example.com:443'] }\n` +
          `https_edges:\n  web: { hostports: ['www.example.com:443', 'y.example.com:443'] }\n`,
      );
      expect(planned.map((op) => [op.id, op.dependsOn])).toEqual([
        ['update https_edges/web', []],
        ['update tls_edges/db', ['update https_edges/web']],
      ]);
    });

    it('removing certificate: from a domain without a policy unsets it, before the certificate goes', async () => {
      const withCert = `${certificates}
reserved_domains:
  site: { domain: site.example.com, certificate: site-cert }
`;
      await expectConverges(
        withCert,
        `${certificates}\nreserved_domains:\n  site: { domain: site.example.com }\n`,
      );
      const domains = await h.client.listAll<{ certificate: unknown }>(
        '/reserved_domains',
        'reserved_domains',
      );
      expect(domains.map((d) => d.certificate)).toEqual([null]);
      await expectConverges(withCert, `reserved_domains:\n  site: { domain: site.example.com }\n`);
    });
  });
}
