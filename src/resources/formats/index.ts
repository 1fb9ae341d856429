/**
 * Pure validators and parsers of the value formats the account API uses, shared by the config
 * loader and the API emulator so that both accept and reject exactly the same values.
 */
export type { Result } from './result.js';
export { byteLength, charLength } from './length.js';
export { isIPv4, isIPv6 } from './ip-address.js';
export { parseCidr, type Cidr } from './cidr.js';
export { compareAddresses, rangeSamples } from './cidr-samples.js';
export { isHostname, isWildcardHostname, parseHostport, type Hostport } from './hostname.js';
export { parseSshAclRule, WILDCARD, type SshAclRule } from './ssh-acl.js';
export { parseSshPublicKey, type SshPublicKey } from './ssh-public-key.js';
export { parsePemCertificates, type ParsedCertificate } from './certificate.js';
export { readPemBlocks } from './pem.js';
export type { KeyUsage } from './certificate-extensions.js';
export type { KeyType } from './key-type.js';
export { parsePrivateKeyPem, privateKeyMatchesCertificate, type PrivateKeyInfo } from './private-key.js';
