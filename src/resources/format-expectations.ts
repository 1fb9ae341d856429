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
};
