/** Whether an address is in a CIDR, IPv4 and IPv6, on Node's own subnet matcher. */
import { BlockList, isIP } from 'node:net';

/** True when `ip` is an address of `cidr` (an address alone is its own /32 or /128). */
export function inCidr(ip: string, cidr: string): boolean {
  const family = isIP(ip);
  const slash = cidr.indexOf('/');
  const base = slash < 0 ? cidr : cidr.slice(0, slash);
  if (family === 0 || isIP(base) !== family) return false;
  const bits = slash < 0 ? (family === 4 ? 32 : 128) : Number(cidr.slice(slash + 1));
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  list.addSubnet(base, bits, type);
  return list.check(ip, type);
}
