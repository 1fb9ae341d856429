/**
 * The platform's traffic-policy macros (functions) beyond standard CEL, from its public macros
 * reference, as CEL signatures. Standard CEL (size, matches, startsWith, timestamp getters, the
 * `all`/`exists`/`filter`/`map` macros, ...) comes from the CEL library itself. Only macros usable
 * on a TLS connection are here: the HTTP request and response helpers (`getReqHeader`, ...) are not.
 */

/** Functions called through a namespace (`base64.decode(...)`), by qualified name. */
export const namespacedFunctions: readonly string[] = [
  'base64.decode(string): bytes',
  'base64.encode(bytes): string',
  'basic_auth.encode(string, string): string',
  ...['crc32', 'crc64', 'md5', 'sha1', 'sha256', 'sha512', 'xxhash64'].flatMap((h) => [
    `hash.${h}(string): string`,
    `hash.${h}(string, string): string`,
  ]),
  'json.decode(string): dyn',
  'json.encode(dyn): string',
  'lists.range(int): list<int>',
  'queryString.decode(string): map<string, dyn>',
  'queryString.encode(map<string, dyn>): string',
  'rand.double(): double',
  'rand.int(): int',
  'rand.int(int, int): int',
  'secrets.get(string, string): string',
  'strings.quote(string): string',
  'url.escape(string): string',
  'url.parse(string): map<string, dyn>',
  'url.unescape(string): string',
];

/** Global functions. */
export const globalFunctions: readonly string[] = [
  'inCidrRange(string, string): bool',
  'inCidrRanges(string, list<string>): bool',
  'matches(string, string): bool',
];

/** Methods, with their receiver type. */
export const methods: readonly string[] = [
  'string.charAt(int): string',
  'string.format(list<dyn>): string',
  'string.split(): list<string>',
  'string.replace(string, string): string',
  'string.replace(string, string, int): string',
  'string.decodeBase64(): string',
  'string.decodeJson(): dyn',
  'string.decodeQueryString(): map<string, dyn>',
  'string.encodeBase64(): string',
  'string.escapeUrl(): string',
  'string.isJson(): bool',
  'string.isPrivateIp(): bool',
  'string.isQueryString(): bool',
  'string.isURL(): bool',
  'string.lower(): string',
  'string.upper(): string',
  'string.parseUrl(): map<string, dyn>',
  'string.unescapeUrl(): string',
  'string.reverse(): string',
  ...['md5', 'sha1', 'sha256', 'sha512', 'crc32', 'crc64', 'xxhash64'].flatMap((h) => [
    `string.${h}(): string`,
    `string.${h}(string): string`,
  ]),
  'list<dyn>.encodeJson(): string',
  'list<dyn>.slice(int, int): list<dyn>',
  'list<dyn>.flatten(): list<dyn>',
  'list<dyn>.flatten(int): list<dyn>',
  'list<dyn>.sort(): list<dyn>',
  'list<dyn>.distinct(): list<dyn>',
  'map.encodeJson(): string',
  'map.encodeQueryString(): string',
];

/** The platform's macro beyond standard CEL's; `environment.ts` declares how it is checked. */
export const sortByMacro = 'list.sortBy(ast, ast): list<dyn>';

/** `base64.decode(string): bytes` → `base64.decode`. */
export function functionName(signature: string): string {
  return signature.slice(0, signature.indexOf('('));
}

/** The namespaces of `namespacedFunctions` (`base64`, `hash`, ...). */
export const functionNamespaces: ReadonlySet<string> = new Set(
  namespacedFunctions.map((s) => functionName(s).split('.')[0]!),
);
