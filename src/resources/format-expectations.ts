/**
 * What each format expects, in words that quote nothing of the value: how a problem with a value
 * acctsync must not echo (one read from the environment or a file) is told.
 */
import type { FormatName } from './types.js';

export const formatExpectations: { readonly [F in FormatName]-?: string } = {
  cidr: 'an IPv4 or IPv6 address or CIDR range (such as 10.0.0.0/8)',
  hostname: 'a valid hostname',
  domain: 'a valid domain name',
  hostport: 'a host:port address',
  'ssh-acl-rule': 'an SSH ACL rule (* or bind:<target>)',
  'ssh-public-key': 'an SSH public key (OpenSSH or PEM)',
  'pem-certificate': 'one PEM certificate',
  'pem-certificate-chain': 'a PEM certificate chain',
  'pem-private-key': 'an unencrypted PEM private key',
  url: 'an http(s) URL',
  'event-type': 'a known event type',
  'serial-number': 'a hexadecimal serial number',
};

/**
 * Formats whose reasons quote nothing of the value but its PEM block labels (`the RSA PRIVATE KEY
 * block ...`), its counts and what was decoded from it (key types). With the labels known to be
 * standard ones, such a reason is safe to repeat, and it says much more than the expectation.
 */
export const pemFormats: ReadonlySet<FormatName> = new Set([
  'pem-certificate',
  'pem-certificate-chain',
  'pem-private-key',
]);

/** The labels of RFC 7468 and OpenSSL: words of the standard, not of anyone's value. */
export const standardPemLabels: ReadonlySet<string> = new Set([
  'CERTIFICATE',
  'TRUSTED CERTIFICATE',
  'X509 CRL',
  'CERTIFICATE REQUEST',
  'NEW CERTIFICATE REQUEST',
  'PRIVATE KEY',
  'ENCRYPTED PRIVATE KEY',
  'RSA PRIVATE KEY',
  'EC PRIVATE KEY',
  'DSA PRIVATE KEY',
  'OPENSSH PRIVATE KEY',
  'EC PARAMETERS',
  'DH PARAMETERS',
  'PUBLIC KEY',
  'RSA PUBLIC KEY',
]);
