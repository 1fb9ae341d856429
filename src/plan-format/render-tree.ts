/**
 * The body of one entry of the text and markdown plans: its changes as a tree down to the leaf
 * (the structural diff), references as the logical names the config uses, created and removed
 * values whole as YAML-like blocks, certificates and public keys by subject and fingerprint.
 */
import { counted } from '../count.js';
import {
  builtinKinds,
  isObjectKey,
  mapReferenceValue,
  nestedFields,
  parsePemCertificates,
  parseSshPublicKey,
  type FieldPath,
  type FieldType,
  type Fields,
  type KindName,
  type KindRegistry,
  type RefTarget,
} from '../resources/index.js';
import { inert, inertLine } from '../inert.js';
import { isPlainObject } from '../plain-object.js';
import { diffValue, type DiffNode } from './diff.js';
import { sensitiveMask, type FieldChange, type Plan } from './types.js';

/** A value shown as a description rather than as itself (a certificate by its subject). */
class Summary {
  constructor(readonly text: string) {}
}

/** Live id -> logical key, for every live object the plan knows by its key. */
export function namesOfIds(plan: Plan): Map<string, string> {
  const names = new Map(Object.entries(plan.resolvedIds).map(([key, id]) => [id, key]));
  for (const op of plan.operations) {
    if (op.liveId !== undefined && isObjectKey(op.key) && !names.has(op.liveId)) names.set(op.liveId, op.key);
  }
  return names;
}

/** A reference as the config writes it, or the raw id with its kind for an object the config does not manage. */
function refName(
  names: ReadonlyMap<string, string>,
  ref: string,
  target: RefTarget,
  kinds: KindRegistry,
): string {
  const key = names.get(ref) ?? ref;
  if (isObjectKey(key)) return key;
  return `${inert(ref)} (unmanaged ${target.kinds.map((k) => kinds.descriptorOf(k).title).join(' or ')})`;
}

/** What a reviewer recognises a certificate or a public key by; undefined for other values. */
function summaryOf(type: FieldType | undefined, value: unknown): Summary | undefined {
  if (type?.type !== 'string' || typeof value !== 'string' || value === sensitiveMask) return undefined;
  if (type.format === 'pem-certificate' || type.format === 'pem-certificate-chain') {
    const parsed = parsePemCertificates(value);
    if (!parsed.ok) return undefined;
    const certs = parsed.value.map(
      (c) =>
        `CN=${c.subjectCommonName} issued by CN=${c.issuerCommonName}, serial ${c.serialNumber}, valid until ${c.notAfter}`,
    );
    return new Summary(`(certificate ${certs.join('; then ')})`);
  }
  if (type.format === 'ssh-public-key') {
    const parsed = parseSshPublicKey(value);
    if (!parsed.ok) return undefined;
    const { type: keyType, fingerprint, comment } = parsed.value;
    return new Summary(`(${keyType} ${fingerprint}${comment === '' ? '' : ` ${comment}`})`);
  }
  return undefined;
}

function summarised(node: DiffNode, type: FieldType | undefined): DiffNode {
  if (node.children !== undefined) return node;
  const before = summaryOf(type, node.before);
  const after = summaryOf(type, node.after);
  return { ...node, ...(before ? { before } : {}), ...(after ? { after } : {}) };
}

type Pending = { readonly change: FieldChange; readonly rest: FieldPath };

/** The tree of changes of one entry from its field-level changes, sharing parents by path. */
export function changeTree(
  kind: KindName,
  changes: readonly FieldChange[],
  names: ReadonlyMap<string, string>,
  kinds: KindRegistry = builtinKinds,
): DiffNode[] {
  const show = (value: unknown, type: FieldType | undefined) =>
    type === undefined
      ? value
      : mapReferenceValue(type, value, (ref, target) => refName(names, ref, target, kinds));
  const leafNode = (name: string, c: FieldChange, type: FieldType | undefined): DiffNode => {
    const hasBefore = Object.hasOwn(c, 'before');
    const hasAfter = Object.hasOwn(c, 'after');
    const before = show(c.before, type);
    const after = show(c.after, type);
    const node: DiffNode =
      hasBefore && hasAfter
        ? diffValue(name, before, after, type)
        : hasAfter
          ? { name, action: 'create', after }
          : { name, action: 'delete', before };
    return summarised(c.forcesReplace ? { ...node, forcesReplace: true } : node, type);
  };
  const group = (fields: Fields | undefined, items: readonly Pending[]): DiffNode[] => {
    const byName = new Map<string, Pending[]>();
    for (const item of items) {
      const name = String(item.rest[0]);
      byName.set(name, [...(byName.get(name) ?? []), item]);
    }
    return [...byName].map(([name, members]) => {
      const type = fields?.[name]?.type;
      const whole = members.find((m) => m.rest.length === 1);
      if (whole) return leafNode(name, whole.change, type);
      const children = group(
        nestedFields(type),
        members.map((m) => ({ change: m.change, rest: m.rest.slice(1) })),
      );
      return { name, action: 'update', children };
    });
  };
  return group(
    kinds.descriptorOf(kind).fields,
    changes.map((change) => ({ change, rest: change.path })),
  );
}

const signs = { create: '+', update: '~', delete: '-' } as const;

/** A value on one line: JSON's escaping, then whatever JSON leaves raw (C1 controls, bidi). */
function scalar(value: unknown): string {
  if (value instanceof Summary) return inert(value.text);
  if (value === sensitiveMask) return sensitiveMask;
  return inert(JSON.stringify(value) ?? 'null');
}

const indent = (lines: readonly string[], by = '  ') => lines.map((l) => `${by}${l}`);
/** Members of a block line up after its sign; its closing bracket under its name. */
const inBlock = (lines: readonly string[]) => indent(lines, '    ');

/** `head: value`, with objects, lists and multi-line strings continued on indented lines. */
function yamlMember(head: string, value: unknown): string[] {
  if (typeof value === 'string' && value.includes('\n')) {
    return [`${head}: |`, ...indent(value.replace(/\n$/, '').split('\n').map(inertLine))];
  }
  const inner = yamlBody(value);
  return inner === undefined ? [`${head}: ${scalar(value)}`] : [`${head}:`, ...indent(inner)];
}

/** The lines of a non-empty object or list, YAML-like; undefined for a value that fits on one line. */
function yamlBody(value: unknown): string[] | undefined {
  if (value instanceof Summary) return undefined;
  if (Array.isArray(value) && value.length > 0) {
    return value.flatMap((item: unknown) => {
      const lines = yamlBody(item) ?? yamlMember('', item).map((l) => l.replace(/^: ?/, ''));
      return lines.map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`));
    });
  }
  // A null member is an unset optional value the normalized side spells out: not worth a line.
  const set = isPlainObject(value) ? Object.entries(value).filter(([, v]) => v !== null) : [];
  if (set.length > 0) return set.flatMap(([k, v]) => yamlMember(inert(k), v));
  return undefined;
}

/** A created or removed member: whole, as a block when it has members. */
function valueLines(head: string, value: unknown, tail: string): string[] {
  const body = yamlBody(value);
  if (body !== undefined) {
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    return [`${head} ${open}${tail}`, ...inBlock(body), `  ${close}`];
  }
  // A list element that is its own name (`+ "db2.example.com:443"`).
  if (head.endsWith(` ${scalar(value)}`)) return [`${head}${tail}`];
  const lines = yamlMember(head, value);
  return [`${lines[0] ?? ''}${tail}`, ...lines.slice(1)];
}

/** The unchanged members of an object (attributes) or of a list (elements) a change leaves out. */
function hidden(count: number | undefined, list = false): string[] {
  if (count === undefined || count === 0) return [];
  const [one, many] = list ? ['element', 'elements'] : ['attribute', 'attributes'];
  return [`# (${counted(count, `unchanged ${one}`, `unchanged ${many}`)} hidden)`];
}

function nodeLines(node: DiffNode): string[] {
  // A member's name may be a map key the account chose.
  const n = { ...node, name: inert(node.name) };
  const sign = signs[n.action];
  const tail = n.forcesReplace ? '  # forces replacement' : '';
  if (n.children !== undefined) {
    const [open, close] = n.list ? ['[', ']'] : ['{', '}'];
    const members = [...n.children.flatMap(nodeLines), ...hidden(n.unchanged, n.list)];
    return [`${sign} ${n.name} ${open}${tail}`, ...inBlock(members), `  ${close}`];
  }
  if (n.action === 'create') return valueLines(`${sign} ${n.name}`, n.after, tail);
  if (n.action === 'delete') return valueLines(`${sign} ${n.name}`, n.before, tail);
  if (yamlBody(n.before) === undefined && yamlBody(n.after) === undefined) {
    const oneLine = [n.before, n.after].every((v) => !(typeof v === 'string' && v.includes('\n')));
    if (oneLine) return [`${sign} ${n.name}: ${scalar(n.before)} -> ${scalar(n.after)}${tail}`];
  }
  return [
    `${sign} ${n.name}:${tail}`,
    ...inBlock([...yamlMember('before', n.before), ...yamlMember('after', n.after)]),
  ];
}

/** The lines of a tree of changes, `unchanged` top-level members counted at its end. */
export function treeLines(nodes: readonly DiffNode[], unchanged?: number): string[] {
  return [...nodes.flatMap(nodeLines), ...hidden(unchanged)];
}
