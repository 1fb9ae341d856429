/**
 * The rule pass over each declared object: the descriptors' own validator (types, limits, formats,
 * cross-field rules, a private key against its certificate included: the same definitions the
 * emulator answers with) plus the warnings only the loader gives.
 */
import {
  ignoredPathProblem,
  nestedCollections,
  parseCidr,
  validateBody,
  type FieldPath,
} from '../resources/index.js';
import type { DeclaredObject } from './objects.js';
import type { FileFinding } from './source.js';
import { didYouMean } from '../suggest.js';
import { pathKey } from './sources.js';
import { withheldMessage, type Withheld } from './withheld.js';

/** The withheld value at `path` or holding it, if any. */
function withheldAt(o: DeclaredObject, path: FieldPath): Withheld | undefined {
  for (let n = path.length; n > 0 && o.withheld.size > 0; n--) {
    const found = o.withheld.get(pathKey(path.slice(0, n)));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Findings about one object's values, in the files that wrote them. */
export function checkObject(o: DeclaredObject): FileFinding[] {
  const out: FileFinding[] = validateBody(o.fields, o.descriptor.rules, o.values, 'desired').map((v) => ({
    ...o.place(v.path),
    message: withheldMessage(withheldAt(o, v.path), v.message),
    ...(v.hint === undefined ? {} : { hint: v.hint }),
    ...(v.offset === undefined ? {} : { offset: v.offset }),
    ...(v.message.startsWith('unknown field') || v.message.includes('read-only') ? { atKey: true } : {}),
  }));
  if (out.length > 0) return out;
  const warnings = [...cidrHostBits(o), ...ignoredByService(o)];
  if (o.ignore === undefined) return warnings;
  return [...ignoredPaths(o, o.ignore), ...warnings];
}

/** Members set that the service ignores (a deprecated field): kept, never compared, said so. */
function ignoredByService(o: DeclaredObject): FileFinding[] {
  return Object.entries(o.fields).flatMap(([name, f]) => {
    const value = o.values[name];
    if (f.serviceIgnores !== true || value === undefined || value === null || value === '') return [];
    return [
      {
        severity: 'warning' as const,
        ...o.place([name]),
        atKey: true,
        message: `${name} of ${o.descriptor.article} ${o.descriptor.title} is deprecated and ignored by the service`,
        hint: 'it is sent as written but never compared, so it never changes or replaces the object; remove it',
      },
    ];
  });
}

/** `ignore:` paths the kind does not have, with the name it probably meant. */
function ignoredPaths(o: DeclaredObject, ignore: readonly string[]): FileFinding[] {
  // A nested collection (`rules`) is named whole: its items added elsewhere are then kept.
  const collections = nestedCollections(o.descriptor.kind).map((c) => c.member);
  return ignore.flatMap((written, i) => {
    if (collections.includes(written)) return [];
    const found = ignoredPathProblem(o.fields, written.split('.'));
    if (found === undefined) return [];
    const problem = found.at.includes('.')
      ? found
      : { ...found, candidates: [...found.candidates, ...collections] };
    const hint = didYouMean(problem.at.split('.').at(-1) ?? '', problem.candidates);
    return [
      {
        source: o.source,
        path: [...o.entryPath, 'ignore', i],
        message: `${o.descriptor.title} has no field ${problem.at}`,
        hint:
          problem.leaf !== undefined
            ? `${problem.leaf} holds no fields of its own: write ignore: [${problem.leaf}] to leave it whole to others`
            : (hint ?? `ignore takes the kind's fields: ${problem.candidates.join(', ')}`),
      },
    ];
  });
}

function cidrHostBits(o: DeclaredObject): FileFinding[] {
  const value = o.values.cidr;
  if (typeof value !== 'string') return [];
  const path: FieldPath = ['cidr'];
  const cidr = parseCidr(value);
  if (!cidr.ok || !cidr.value.hostBitsSet) return [];
  return [
    {
      severity: 'warning',
      ...o.place(path),
      message: `${withheldAt(o, path)?.subject ?? value} has bits set beyond its /${cidr.value.prefix} prefix`,
      hint: 'the rule is kept as written; write the network address if that is what you meant',
    },
  ];
}
