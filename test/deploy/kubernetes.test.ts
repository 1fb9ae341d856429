/**
 * deploy/kubernetes/ rendered as `kubectl apply -k` would (base, each overlay, each overlay with the
 * optional components), every object validated against the Kubernetes OpenAPI schemas of
 * kubernetes-models, and the promises docs/deploy.md makes checked against the daemon itself: the
 * container's arguments parse with `acctsync watch`'s own parser, the probes hit endpoints the
 * daemon serves on the port it listens on, and the API key comes from a Secret the manifests only
 * reference.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { NetworkPolicy, type INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { afterAll, describe, expect, it } from 'vitest';

import { parseCommandArgs } from '../../src/cli/args.js';
import { command as watch } from '../../src/cli/commands/watch.js';
import { loadDesiredState } from '../../src/config/index.js';
import { parseListen } from '../../src/watch/health.js';
import { policyFile, startWatch, waitFor } from '../watch/daemon-harness.js';
import { applyJsonPatch, renderKustomization, type KubeObject } from './kustomize.js';

const deployDir = new URL('../../deploy/kubernetes/', import.meta.url).pathname;
const exampleConfig = new URL('../../examples/environments/', import.meta.url).pathname;
const environments = ['staging', 'production'];
const components = ['servicemonitor', 'configmap-config'];

/** Each kind the manifests may contain, by apiVersion and kind, with its schema-validating model. */
const MODELS: Readonly<Record<string, new (data: never) => { validate(): void }>> = {
  'apps/v1 Deployment': Deployment,
  'v1 ConfigMap': ConfigMap,
  'v1 Namespace': Namespace,
  'v1 Service': Service,
  'v1 ServiceAccount': ServiceAccount,
  'networking.k8s.io/v1 NetworkPolicy': NetworkPolicy,
  'monitoring.coreos.com/v1 ServiceMonitor': ServiceMonitor,
};

const scratch = mkdtempSync(join(tmpdir(), 'acctsync-kustomize-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An overlay with components enabled, as docs/deploy.md tells users to write it. */
function withComponents(environment: string, names: readonly string[]): string {
  const dir = mkdtempSync(join(scratch, `${environment}-`));
  const lines = [
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    'resources:',
    `  - ${join(deployDir, 'overlays', environment)}`,
    'components:',
    ...names.map((name) => `  - ${join(deployDir, 'components', name)}`),
  ];
  writeFileSync(join(dir, 'kustomization.yaml'), `${lines.join('\n')}\n`);
  return dir;
}

const renders: [string, string][] = [
  ['base', join(deployDir, 'base')],
  ...environments.map((env): [string, string] => [`overlays/${env}`, join(deployDir, 'overlays', env)]),
  ...environments.flatMap((env) =>
    components.map((c): [string, string] => [`overlays/${env} + ${c}`, withComponents(env, [c])]),
  ),
];

function deploymentOf(objects: KubeObject[]): IDeployment {
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  expect(deployments).toHaveLength(1);
  return deployments[0] as unknown as IDeployment;
}

function daemonContainer(deployment: IDeployment): IContainer {
  const container = deployment.spec?.template.spec?.containers.find((c) => c.name === 'acctsync');
  expect(container).toBeDefined();
  return container as IContainer;
}

/** The `acctsync watch` flags of the container, parsed by the CLI's own parser. */
function watchArgs(container: IContainer) {
  const [command, ...rest] = container.args ?? [];
  expect(command).toBe('watch');
  return parseCommandArgs('watch', rest, watch.flags);
}

describe.each(renders)('kustomize build %s', (_name, dir) => {
  const objects = renderKustomization(dir);

  it('renders objects that are valid against the Kubernetes schemas', () => {
    expect(objects.length).toBeGreaterThan(0);
    for (const object of objects) {
      const Model = MODELS[`${object.apiVersion} ${object.kind}`];
      expect(Model, `${object.apiVersion} ${object.kind} has no schema here`).toBeDefined();
      expect(() => new (Model as NonNullable<typeof Model>)(object as never).validate()).not.toThrow();
    }
  });

  it('runs two daemons (one holds the scope, one is a standby), rolled one pod at a time', () => {
    const deployment = deploymentOf(objects);
    expect(deployment.spec?.replicas).toBe(2);
    expect(deployment.spec?.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 0, maxUnavailable: 1 },
    });
    // In reconcile mode: a standby exists only where a lease is taken (watch --mode observe takes none).
    expect(watchArgs(daemonContainer(deployment)).values.mode).toBe('reconcile');
  });

  it("runs `acctsync watch` with flags the CLI accepts, on the image's entrypoint", () => {
    const container = daemonContainer(deploymentOf(objects));
    expect(container.command).toBeUndefined();
    const { values, positionals } = watchArgs(container);
    expect(positionals).toHaveLength(1);
    // The config path is inside the config volume's mount.
    const mount = container.volumeMounts?.find((m) => m.name === 'config');
    expect(positionals[0]?.startsWith(mount?.mountPath ?? '-')).toBe(true);
    expect(mount?.readOnly).toBe(true);
    expect(values['api-key-file']).toBeDefined();
    // The address is a flag (it wins over an environment's api_url_env), expanded by Kubernetes
    // from a variable the container defines.
    const expanded = /^\$\((\w+)\)$/.exec(values['api-url'] ?? '')?.[1];
    expect(container.env?.map((e) => e.name)).toContain(expanded);
  });

  it('judges each plan by the policy rules, which come with the config', () => {
    const container = daemonContainer(deploymentOf(objects));
    const policies = watchArgs(container).values.policy ?? [];
    expect(policies).toHaveLength(1);
    const mount = container.volumeMounts?.find((m) => policies[0]!.startsWith(m.mountPath));
    expect(mount?.readOnly).toBe(true);
  });

  it('probes /healthz on the port the daemon listens on (the standby answers /readyz 503), and annotates it for scraping', () => {
    const deployment = deploymentOf(objects);
    const container = daemonContainer(deployment);
    const { port } = parseListen(watchArgs(container).values.listen);
    const named = container.ports?.find((p) => p.containerPort === port);
    expect(named?.name).toBe('metrics');
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: named?.name });
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/healthz', port: named?.name });
    expect(deployment.spec?.template.metadata?.annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(port),
      'prometheus.io/path': '/metrics',
    });
  });

  it("admits to the daemon's port only the metrics scraper (the kubelet's probes come from the node)", () => {
    const policies = objects.filter((o) => o.kind === 'NetworkPolicy') as unknown as INetworkPolicy[];
    expect(policies).toHaveLength(1);
    const spec = policies[0]!.spec!;
    const labels = deploymentOf(objects).spec?.template.metadata?.labels;
    expect(spec.podSelector.matchLabels).toEqual(labels);
    expect(spec.policyTypes).toEqual(['Ingress']);
    expect(spec.ingress).toHaveLength(1);
    const [rule] = spec.ingress!;
    expect(rule!.ports).toEqual([{ port: 'metrics', protocol: 'TCP' }]);
    // One peer, namespace and pod both selected: not every pod of the scraper's namespace.
    expect(rule!.from).toHaveLength(1);
    expect(rule!.from![0]!.namespaceSelector?.matchLabels).toBeDefined();
    expect(rule!.from![0]!.podSelector?.matchLabels).toBeDefined();
  });

  it('takes the API key from a Secret it references and never contains', () => {
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    const spec = deploymentOf(objects).spec?.template.spec;
    const container = daemonContainer(deploymentOf(objects));
    const keyFile = watchArgs(container).values['api-key-file'] ?? '';
    const mount = container.volumeMounts?.find((m) => keyFile.startsWith(`${m.mountPath}/`));
    const volume = spec?.volumes?.find((v) => v.name === mount?.name);
    expect(volume?.secret?.secretName).toBe('acctsync-api-key');
    expect(keyFile.slice((mount?.mountPath.length ?? 0) + 1)).toBe('api-key');
    for (const c of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])]) {
      for (const env of c.env ?? []) {
        expect(env.name, `${c.name} env ${env.name}`).not.toMatch(/KEY|TOKEN|SECRET|PASSWORD/i);
      }
    }
  });

  it('runs every container as non-root on a read-only root filesystem, with no token for the Kubernetes API', () => {
    const spec = deploymentOf(objects).spec?.template.spec;
    expect(spec?.securityContext?.runAsNonRoot).toBe(true);
    expect(spec?.automountServiceAccountToken).toBe(false);
    for (const c of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])]) {
      expect(c.securityContext?.readOnlyRootFilesystem, c.name).toBe(true);
      expect(c.securityContext?.allowPrivilegeEscalation, c.name).toBe(false);
      expect(c.securityContext?.runAsUser, c.name).toBeGreaterThan(0);
      expect(c.image, c.name).toMatch(/:[\w.-]+$/); // pinned by tag, never implicitly :latest
    }
  });

  it('gives the daemon the memory the bench measures for a 10,000-object account', () => {
    const resources = daemonContainer(deploymentOf(objects)).resources;
    // docs/performance.md: a 10,000-object plan stays under 300 MB (186 MB measured).
    expect(mebibytes(resources?.limits?.memory)).toBeGreaterThanOrEqual(300);
    expect(mebibytes(resources?.requests?.memory)).toBeGreaterThanOrEqual(186);
  });
});

describe('per-environment overlays', () => {
  it('each run in their own namespace, on their own environment of the config repository', async () => {
    const namespaces = new Set<string>();
    for (const env of environments) {
      const objects = renderKustomization(join(deployDir, 'overlays', env));
      const namespace = objects.find((o) => o.kind === 'Namespace')?.metadata.name;
      expect(namespace).toBe(`acctsync-${env}`);
      for (const o of objects.filter((o) => o.kind !== 'Namespace'))
        expect(o.metadata.namespace).toBe(namespace);
      namespaces.add(namespace ?? '');
      const { positionals, values } = watchArgs(daemonContainer(deploymentOf(objects)));
      expect(positionals).toEqual(['/config/current']);
      expect(values.env).toBe(env);
      // The environment is one an environments config like the example declares.
      const loaded = await loadDesiredState([exampleConfig], { cwd: exampleConfig, environment: env });
      expect(loaded.ok && loaded.environment?.name).toBe(env);
    }
    expect(namespaces.size).toBe(environments.length);
  });

  it('with the configmap-config component read the config from the ConfigMap, without git-sync', () => {
    const objects = renderKustomization(withComponents('staging', ['configmap-config']));
    const spec = deploymentOf(objects).spec?.template.spec;
    expect(spec?.initContainers).toBeUndefined();
    expect(spec?.containers.map((c) => c.name)).toEqual(['acctsync']);
    expect(spec?.volumes?.find((v) => v.name === 'config')?.configMap?.name).toBe('acctsync-config');
    const { positionals, values } = watchArgs(daemonContainer(deploymentOf(objects)));
    expect(positionals).toEqual(['/config']);
    expect(values.policy).toEqual(['/policies']);
    expect(spec?.volumes?.find((v) => v.name === 'policies')?.configMap?.name).toBe('acctsync-policies');
  });
});

describe('the daemon behind the probes', () => {
  it('answers the liveness and readiness paths of the manifests', async () => {
    const container = daemonContainer(deploymentOf(renderKustomization(join(deployDir, 'base'))));
    const daemon = await startWatch({ files: { 'account.yaml': policyFile('kube-probe') } });
    try {
      const liveness = await fetch(new URL(container.livenessProbe?.httpGet?.path ?? '', daemon.url));
      expect(liveness.status).toBe(200);
      const readinessPath = container.readinessProbe?.httpGet?.path ?? '';
      await waitFor('readiness after the first reconcile', async () => {
        const response = await fetch(new URL(readinessPath, daemon.url));
        return response.status === 200;
      });
    } finally {
      await daemon.close();
    }
  });
});

/** `512Mi`, `1Gi`, `300M` as MiB. */
function mebibytes(quantity: string | number | undefined): number {
  const match = /^(\d+)(Mi|Gi|M|G)$/.exec(String(quantity));
  if (match === null) return NaN;
  const factor = { Mi: 1, Gi: 1024, M: 1e6 / 2 ** 20, G: 1e9 / 2 ** 20 }[match[2] as 'Mi' | 'Gi' | 'M' | 'G'];
  return Number(match[1]) * factor;
}

describe('the renderer', () => {
  it('refuses kustomization fields it does not render, rather than ignoring them', () => {
    const dir = mkdtempSync(join(scratch, 'unknown-'));
    const base = join(deployDir, 'base');
    writeFileSync(
      join(dir, 'kustomization.yaml'),
      `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [${base}]\nnamePrefix: x-\n`,
    );
    expect(() => renderKustomization(dir)).toThrow('fields this renderer does not support: namePrefix');
  });

  it('applies JSON patches as RFC 6902 says, and fails a patch whose test does not hold', () => {
    const document = { a: [1, 2], b: { c: 'd' } };
    expect(
      applyJsonPatch(document, [
        { op: 'add', path: '/a/-', value: 3 },
        { op: 'add', path: '/a/0', value: 0 },
        { op: 'remove', path: '/a/1' },
        { op: 'replace', path: '/b/c', value: 'e' },
        { op: 'add', path: '/b/f~1g', value: true },
      ]),
    ).toEqual({ a: [0, 2, 3], b: { c: 'e', 'f/g': true } });
    expect(document).toEqual({ a: [1, 2], b: { c: 'd' } });
    expect(() => applyJsonPatch(document, [{ op: 'test', path: '/b/c', value: 'x' }])).toThrow(
      'patch test of "/b/c" failed: found "d"',
    );
    expect(() => applyJsonPatch(document, [{ op: 'remove', path: '/a/2' }])).toThrow('no index 2');
    expect(() => applyJsonPatch(document, [{ op: 'replace', path: '/z', value: 1 }])).toThrow(
      'does not exist',
    );
  });
});

describe('docs/deploy.md', () => {
  const doc = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');

  it('applies overlays that exist and creates the Secret the manifests reference', () => {
    const applied = [...doc.matchAll(/kubectl apply -k (\S+)/g)].map((m) => m[1] ?? '');
    expect(applied.length).toBeGreaterThan(0);
    for (const path of applied)
      expect(renderKustomization(join(deployDir, '../..', path)).length).toBeGreaterThan(0);
    expect(doc).toContain('create secret generic acctsync-api-key --from-file=api-key=');
    const namespaces = [...doc.matchAll(/kubectl -n (\S+)/g)].map((m) => m[1]);
    const staging = renderKustomization(join(deployDir, 'overlays', 'staging'));
    expect(new Set(namespaces)).toEqual(
      new Set([staging.find((o) => o.kind === 'Namespace')?.metadata.name]),
    );
  });
});
