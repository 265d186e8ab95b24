/**
 * Which addresses a notification may go to (src/domain/outbound-addresses.ts, docs/security.md):
 * loopback, private, link-local, unique-local, multicast, unspecified and reserved ones are refused,
 * IPv4 and IPv6 alike, and an IPv6 address carrying an IPv4 one is classed as that IPv4 address.
 */
import { addressClass } from '../../src/domain/outbound-addresses';

it.each([
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456::1', 'unique-local'],
  ['224.0.0.1', 'multicast'],
  ['ff02::1', 'multicast'],
  ['0.0.0.0', 'unspecified'],
  ['::', 'unspecified'],
  ['255.255.255.255', 'reserved'],
  ['192.0.0.8', 'reserved'],
  // IPv4 carried in IPv6: mapped, in either spelling, compatible, and NAT64's well-known prefix.
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['[::ffff:10.0.0.1]', 'private'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['0:0:0:0:0:ffff:c0a8:101', 'private'],
  ['::127.0.0.1', 'loopback'],
  ['64:ff9b::a9fe:a9fe', 'link-local'],
  ['localhost', 'not an IP address'],
])('refuses %s: %s', (address, kind) => {
  expect(addressClass(address)).toBe(kind);
});

it.each([
  '93.184.215.14',
  '1.1.1.1',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700::1111',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
])('lets %s through: a public address', (address) => {
  expect(addressClass(address)).toBeNull();
});
