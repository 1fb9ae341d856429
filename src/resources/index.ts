/** Resource kinds as data: descriptors, their rules, the shared validator and shape conversions. */
export * from './types.js';
export * from './builtin-kinds.js';
export * from './registry.js';
export { aTitle, aTitleAtStart, anyOf, countOf } from './titles.js';
export { pickFields } from './own-fields.js';
export * from './error-codes.js';
export * from './event-types.js';
export { validateBody } from './validate.js';
export { derivedOnce } from './field-lists.js';
export { checkFormat } from './format-check.js';
export { formatExpectations, pemFormats, standardPemLabels } from './format-expectations.js';
export * from './shape.js';
export * from './walk.js';
export { ignoredPathProblem, withoutPaths } from './ignored.js';
export { nestedCollections } from './nested.js';
export * from './references.js';
export * from './state.js';
export { tunnelSessionCommands, type TunnelSessionCommand } from './kinds/sessions.js';
export * from './identity.js';
export { filledWhileSet, serverFills } from './server-filled.js';
export { canonicalJson, canonicalMetadata, canonicalValues } from './canonical.js';
export { collectionParts, collectionPath, objectPath } from './paths.js';
export { namedFields } from './field-lists.js';
export { formatLeaseRecord, parseLeaseRecord, type LeaseRecord } from './ownership/lease-record.js';
export { markedMetadata, type MarkedMetadata } from './ownership/marked-metadata.js';
export {
  cachedSecretHasher,
  formatMetadata,
  hashSecret,
  parseMetadata,
  secretMatches,
  writtenFingerprint,
  writtenPlaceholder,
  type OwnershipMarker,
  type SecretHasher,
} from './ownership/marker.js';
export { describeValue } from './describe-value.js';
export {
  parseCidr,
  parsePemCertificates,
  parseSshPublicKey,
  compareAddresses,
  rangeSamples,
  type ParsedCertificate,
} from './formats/index.js';
export { samlModule } from './modules.js';
export { regions } from './fields.js';
export { keyIdentity, leasePublicKey } from './ownership/lease-key.js';
export { isLeaseObject } from './ownership/lease-object.js';
export {
  findFields,
  hashKey,
  isSensitiveField,
  secretPaths,
  writeOnlyValues,
} from './ownership/secret-fields.js';
