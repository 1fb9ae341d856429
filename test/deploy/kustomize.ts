/**
 * A small Kustomize renderer for the subset deploy/kubernetes/ uses, so the tests can render it
 * without the kustomize binary: `resources` (files and directories), `components`, `namespace`,
 * `patches` as RFC 6902 JSON patches with a kind/name target, and `images`. Any other field is an
 * error rather than silently ignored, so the manifests cannot drift into what this renderer (and
 * so the tests) does not understand.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

export type KubeObject = Record<string, unknown> & {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string } & Record<string, unknown>;
};

type Json = unknown;
interface PatchOperation {
  readonly op: 'add' | 'remove' | 'replace' | 'test';
  readonly path: string;
  readonly value?: Json;
}

const KNOWN_FIELDS = new Set([
  'apiVersion',
  'kind',
  'resources',
  'components',
  'namespace',
  'patches',
  'images',
]);
/** Kinds that live outside namespaces among those the manifests use. */
const CLUSTER_SCOPED = new Set(['Namespace']);

/** The objects `kubectl kustomize <dir>` would print for the kustomization in `dir`. */
export function renderKustomization(dir: string): KubeObject[] {
  return build(dir, 'Kustomization', []);
}

function build(dir: string, expectedKind: string, inherited: KubeObject[]): KubeObject[] {
  const file = resolve(dir, 'kustomization.yaml');
  const kustomization = readYaml(file)[0] as Record<string, unknown>;
  const unknown = Object.keys(kustomization).filter((key) => !KNOWN_FIELDS.has(key));
  if (unknown.length > 0)
    throw new Error(`${file}: fields this renderer does not support: ${unknown.join(', ')}`);
  if (kustomization.kind !== expectedKind) throw new Error(`${file}: expected kind ${expectedKind}`);

  let objects = [...inherited];
  for (const entry of list<string>(kustomization.resources)) {
    const path = resolve(dir, entry);
    objects.push(
      ...(statSync(path).isDirectory() ? build(path, 'Kustomization', []) : (readYaml(path) as KubeObject[])),
    );
  }
  for (const entry of list<string>(kustomization.components))
    objects = build(resolve(dir, entry), 'Component', objects);

  for (const patch of list<{ path: string; target: { kind: string; name: string } }>(kustomization.patches)) {
    const operations = readYaml(resolve(dir, patch.path))[0] as PatchOperation[];
    const targets = objects.filter(
      (o) => o.kind === patch.target.kind && o.metadata.name === patch.target.name,
    );
    if (targets.length === 0) throw new Error(`${file}: patch ${patch.path} matches no object`);
    objects = objects.map((o) => (targets.includes(o) ? (applyJsonPatch(o, operations) as KubeObject) : o));
  }
  for (const image of list<{ name: string; newName?: string; newTag?: string }>(kustomization.images)) {
    for (const object of objects) setImage(object, image);
  }
  const namespace = kustomization.namespace;
  if (typeof namespace === 'string') {
    objects = objects.map((o) =>
      CLUSTER_SCOPED.has(o.kind) ? o : { ...o, metadata: { ...o.metadata, namespace } },
    );
  }
  return objects;
}

function readYaml(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
    return doc.toJS() as unknown;
  });
}

function list<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

/** RFC 6902 add, remove, replace and test, on a copy. */
export function applyJsonPatch(document: Json, operations: readonly PatchOperation[]): Json {
  const root = structuredClone(document);
  for (const operation of operations) {
    const tokens = operation.path
      .split('/')
      .slice(1)
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = tokens.pop();
    if (last === undefined) throw new Error(`patch path "${operation.path}" points at the whole document`);
    let parent: Json = root;
    for (const token of tokens) parent = child(parent, token, operation.path);
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      const inRange =
        Number.isInteger(index) && index >= 0 && index <= parent.length - (operation.op === 'add' ? 0 : 1);
      if (!inRange) throw new Error(`patch path "${operation.path}": no index ${last}`);
      if (operation.op === 'test') expectEqual(parent[index], operation);
      else
        parent.splice(
          index,
          operation.op === 'add' ? 0 : 1,
          ...(operation.op === 'remove' ? [] : [operation.value]),
        );
    } else if (typeof parent === 'object' && parent !== null) {
      const record = parent as Record<string, Json>;
      if (operation.op !== 'add' && !Object.hasOwn(record, last)) {
        throw new Error(`patch path "${operation.path}" does not exist`);
      }
      if (operation.op === 'test') expectEqual(record[last], operation);
      else if (operation.op === 'remove') delete record[last];
      else record[last] = operation.value;
    } else {
      throw new Error(`patch path "${operation.path}" goes through a scalar`);
    }
  }
  return root;
}

function child(parent: Json, token: string, path: string): Json {
  const value: Json = Array.isArray(parent)
    ? (parent as Json[])[Number(token)]
    : typeof parent === 'object' && parent !== null
      ? (parent as Record<string, Json>)[token]
      : undefined;
  if (value === undefined) throw new Error(`patch path "${path}" does not exist`);
  return value;
}

function expectEqual(actual: Json, operation: PatchOperation): void {
  if (JSON.stringify(actual) !== JSON.stringify(operation.value)) {
    throw new Error(`patch test of "${operation.path}" failed: found ${JSON.stringify(actual)}`);
  }
}

/** Kustomize's image transformer: containers whose image name (without tag) is `image.name`. */
function setImage(object: KubeObject, image: { name: string; newName?: string; newTag?: string }): void {
  const spec = (object.spec as { template?: { spec?: Record<string, unknown> } } | undefined)?.template?.spec;
  for (const key of ['initContainers', 'containers']) {
    for (const container of list<{ image: string }>(spec?.[key])) {
      // The tag is after the last colon that follows the last slash (a registry may have a port).
      const [, name = '', tag] = /^(.*?)(?::([^:/]+))?$/.exec(container.image) ?? [];
      if (name !== image.name) continue;
      container.image = `${image.newName ?? name}:${image.newTag ?? tag ?? 'latest'}`;
    }
  }
}
