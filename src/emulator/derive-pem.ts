/** The members of a certificate-holding object that the service reads from its PEM. */
import {
  ErrorCode,
  derivedOnce,
  parsePemCertificates,
  type Fields,
  type KindDescriptor,
  type ParsedCertificate,
} from '../resources/index.js';
import { badRequest } from './failure.js';
import type { Answers } from './answers.js';

/** Read-only members filled from a parsed certificate, by response name. */
const pemMembers: Readonly<Record<string, (c: ParsedCertificate, answers: Answers) => unknown>> = {
  subject_common_name: (c) => c.subjectCommonName,
  not_before: (c) => c.notBefore,
  not_after: (c) => c.notAfter,
  key_usages: (c) => c.keyUsages,
  extended_key_usages: (c) => c.extendedKeyUsages,
  subject_alternative_names: (c) => ({
    dns_names: c.subjectAlternativeNames.dnsNames,
    ips: c.subjectAlternativeNames.ips,
  }),
  issued_at: () => null,
  private_key_type: (c) => c.publicKeyType,
  issuer_common_name: (c) => c.issuerCommonName,
  // The vendor's examples keep the leading zeros of whole bytes (`054ba7...`).
  serial_number: (c, answers) =>
    answers === 'vendor' && c.serialNumber.length % 2 === 1 ? `0${c.serialNumber}` : c.serialNumber,
  subject_organization: (c) => c.subjectOrganization,
  subject_organizational_unit: (c) => c.subjectOrganizationalUnit,
  subject_locality: (c) => c.subjectLocality,
  subject_province: (c) => c.subjectProvince,
  subject_country: (c) => c.subjectCountry,
};

function fieldWithFormat(fields: Fields, format: string): string | undefined {
  return Object.entries(fields).find(([, f]) => f.type.type === 'string' && f.type.format === format)?.[0];
}

/** The member holding a kind's certificate PEM, if it has one. */
const pemFieldOf = derivedOnce(
  (fields: Fields): string | undefined =>
    fieldWithFormat(fields, 'pem-certificate') ?? fieldWithFormat(fields, 'pem-certificate-chain'),
);

/** Fills the PEM-derived members (the key's match is a rule of the descriptor: see `rules.ts`). */
export function derivePem(d: KindDescriptor, values: Record<string, unknown>, answers: Answers): void {
  const pemField = pemFieldOf(d.fields);
  const pem = pemField === undefined ? undefined : values[pemField];
  if (typeof pem !== 'string') return;
  const parsed = parsePemCertificates(pem);
  const leaf = parsed.ok ? parsed.value[0] : undefined;
  if (leaf === undefined) throw badRequest(ErrorCode.invalidValue, `${pemField}: no certificate`);
  for (const [name, read] of Object.entries(pemMembers)) {
    if (d.fields[name]?.write === 'read-only') values[name] = read(leaf, answers);
  }
}
