/**
 * The service's error numbers (`ERR_SVC_<n>`) that acctsync answers with or keys on, from gaps.md.
 * Clients key on these codes, not only on the HTTP status: the live service may say 400 where
 * the emulator says 409.
 */
export const ErrorCode = {
  bodyUnparseable: 213,
  unknownField: 214,
  invalidValue: 215,
  missingContentType: 216,
  invalidVersion: 217,
  validationFailed: 218,
  wrongContentType: 210,
  badReference: 223,
  rateLimited: 226,
  wrongIdPrefix: 227,
  unknownQueryParameter: 231,
  pageSizeOutOfRange: 233,
  unknownEventType: 238,
  domainReserved: 413,
  descriptionTooLong: 420,
  metadataTooLong: 421,
  objectInUse: 446,
  sshKeyExists: 609,
  ruleCidrExists: 1408,
  errorThresholdRange: 7011,
  hostportInUse: 7132,
  /** Not from gaps.md: the emulator's codes for conditions gaps.md names no number for. */
  notFound: 100,
  unauthorized: 101,
  forbidden: 102,
  methodNotAllowed: 103,
  bodyTooLarge: 104,
  internal: 105,
  agentCommandRefused: 106,
  routeMatchExists: 107,
} as const;

/** `ERR_SVC_446` from `446`. */
export function errorCodeString(code: number): string {
  return `ERR_SVC_${code}`;
}
