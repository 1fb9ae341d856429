/**
 * Where each kind lives in the desired-state YAML, derived from the descriptors' `config`
 * placements: the top-level maps, the variants sharing a map (`backends`), the children written
 * inside their parent (`rules`, `routes`). The schema generator and the loader both read this, so
 * they cannot disagree about the layout.
 */
import {
  builtinKinds,
  newObjectPin,
  pickFields,
  type Fields,
  type KindDescriptor,
  type KindName,
} from '../resources/index.js';

/** A kind written as a list inside each entry of its parent's map. */
export interface ChildLayout {
  readonly descriptor: KindDescriptor;
  /** The member of the parent entry holding the list (`rules`). */
  readonly member: string;
  /** The field linking a child to its parent in the record (`ip_policy`), filled in by the loader. */
  readonly parentField?: string;
  /** The fields a user writes in each list item. */
  readonly fields: Fields;
}

/** One top-level map of the config. */
export interface MapLayout {
  /** The map's key at the top level (`backends`). */
  readonly key: string;
  /** One kind, or several distinguished by a variant member. */
  readonly kinds: readonly KindDescriptor[];
  /** For shared maps: each variant member and its kind, and the fields written beside the variant. */
  readonly variants?: {
    readonly members: ReadonlyArray<{ readonly member: string; readonly descriptor: KindDescriptor }>;
    readonly shared: Fields;
  };
  readonly children: readonly ChildLayout[];
}

/** Fields a user writes: everything the service does not compute. */
export function writableFields(fields: Fields): Fields {
  return pickFields(fields, (_name, f) => f.write !== 'read-only');
}

/** Fields the service computes: refused in the config with a message saying so. */
export function readOnlyFields(fields: Fields): Fields {
  return pickFields(fields, (_name, f) => f.write === 'read-only');
}

function childLayout(d: KindDescriptor, member: string): ChildLayout {
  const parentField = d.parent?.via === 'field' ? d.parent.field : undefined;
  const fields = pickFields(d.fields, (name) => name !== parentField);
  return parentField === undefined
    ? { descriptor: d, member, fields }
    : { descriptor: d, member, parentField, fields };
}

/** Fields every variant of a shared map has alike (`description`, `metadata`): written beside the variant. */
function sharedFields(kinds: readonly KindDescriptor[]): Fields {
  const [first, ...rest] = kinds;
  if (first === undefined) return pickFields({}, () => false);
  return pickFields(first.fields, (name, f) =>
    rest.every((d) => JSON.stringify(d.fields[name]) === JSON.stringify(f)),
  );
}

function buildLayout(): MapLayout[] {
  const maps = new Map<string, { kinds: KindDescriptor[]; children: ChildLayout[] }>();
  const entry = (key: string) => {
    let m = maps.get(key);
    if (!m) maps.set(key, (m = { kinds: [], children: [] }));
    return m;
  };
  for (const d of builtinKinds.managed) {
    const config = d.config!;
    if (config.nestedIn) entry(config.key).children.push(childLayout(d, config.nestedIn.member));
    else entry(config.key).kinds.push(d);
  }
  return [...maps].map(([key, { kinds, children }]) => {
    if (kinds.length <= 1) return { key, kinds, children };
    return {
      key,
      kinds,
      children,
      variants: {
        members: kinds.map((d) => ({ member: d.config!.variant ?? d.kind, descriptor: d })),
        shared: sharedFields(kinds),
      },
    };
  });
}

/**
 * Every top-level map, in the order the descriptors declare the kinds: the built-in kinds, as the
 * validator the build precompiles from the generated schema knows only those.
 */
export const configLayout: readonly MapLayout[] = buildLayout();

/** The top-level map holding `kind` (for nested kinds, their parent's map). */
export function mapOfKind(kind: KindName): MapLayout | undefined {
  return configLayout.find(
    (m) => m.kinds.some((d) => d.kind === kind) || m.children.some((c) => c.descriptor.kind === kind),
  );
}

/** Logical names: no `/` (keys join names with it), nothing that reads as a path or a flag. */
export const namePattern = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$';

/** The member pinning an entry to a live object by id; not a field of any kind. */
export const pinMember = 'id';

/**
 * Members acctsync reads itself on every entry and nested item, never sent to the API: the `id` pin
 * (docs/export.md "Taking an account over"), `protect` (docs/apply.md "Protection") and `ignore`
 * (docs/config.md "Fields owned elsewhere").
 */
export const lifecycleMembers = {
  [pinMember]: {
    description: `The id of the live object this entry is (written by \`export\`): \`sync --adopt\` pairs by it before anything else. \`${newObjectPin}\` asks for a new object although unmanaged look-alikes exist.`,
    type: 'string',
    pattern: `^(${newObjectPin}|[a-z]+_[A-Za-z0-9]+)$`,
  },
  protect: {
    description:
      'Refuse to delete or replace this object, even once its block left the config, until a sync with `protect: false` or `--unprotect KEY`. Recorded on the live object.',
    type: 'boolean',
  },
  ignore: {
    description:
      'Fields owned elsewhere (`acl`, `oidc.client_secret`): sent on create when given, never compared or written afterwards. See docs/config.md "Fields owned elsewhere".',
    type: 'array',
    items: { type: 'string', pattern: '^[a-z0-9_]+(\\.[a-z0-9_]+)*$' },
  },
} as const;

/** Members of a top-level entry only: `observe` takes the whole entry, nested items included. */
export const entryMembers = {
  ...lifecycleMembers,
  observe: {
    description:
      'Read this object (paired by `id:` or natural key, whoever manages it) and report its drift, but never create, update, delete or mark it. See docs/config.md "Observed objects".',
    type: 'boolean',
  },
} as const;
