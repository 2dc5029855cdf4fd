/**
 * Webhook URL guard. A webhook makes the service send requests to a URL a client chose, so without a
 * check a client could point it at the service's own network (loopback, private ranges, the cloud
 * metadata endpoint) and use the deliveries to probe or reach it. The check runs twice: on the text
 * when a webhook is created (syntax, scheme, and any IP literal), and on the resolved addresses right
 * before each delivery, which then connects to the very address that was checked, so a DNS answer that
 * changes between check and connect cannot slip through.
 */
import { promises as dnsPromises, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import ipaddr from 'ipaddr.js';

/** What an operator may relax: plain http and private addresses are for development and tests only. */
export interface UrlPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
}

/** Why a URL was refused, so the caller can tell a typo (invalid_url) from a blocked target. */
export type UrlRefusal = 'invalid_url' | 'scheme_not_allowed' | 'user_info_not_allowed' | 'address_not_allowed' | 'dns_failed';

/** The one error this guard throws; `reason` is stable, the message is for people. */
export class UrlRefused extends Error {
  constructor(
    readonly reason: UrlRefusal,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A name that does not resolve within this long is refused: a hung resolver must not hold a delivery. */
const DNS_TIMEOUT_MS = 5000;

/** Longer URLs are refused: no legitimate endpoint needs more, and it bounds what is stored and logged. */
const MAX_URL_LENGTH = 2048;

/** NAT64 (64:ff9b::/96) carries an IPv4 address in its last 32 bits; it is judged as that IPv4 address. */
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * The deprecated IPv4-compatible form (::a.b.c.d). ipaddr.js classes it as unicast, yet some stacks
 * route it to the embedded IPv4 address, and no public endpoint uses it, so it is refused outright.
 */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/**
 * Whether a delivery may connect to `address` (an IP address without brackets). Only ipaddr.js's
 * 'unicast' range passes: every range it names (loopback, private, link-local with the metadata
 * endpoint, carrier-grade NAT, unique local, multicast, reserved...) is refused. IPv4-mapped and NAT64
 * IPv6 addresses are judged by the IPv4 address they carry, or they would be a way around the IPv4
 * rules. `allowPrivate` lets any valid address through; text that is not an address never passes.
 */
export function addressAllowed(address: string, policy: UrlPolicy): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (policy.allowPrivate) return true;
  if (parsed instanceof ipaddr.IPv6) {
    if (parsed.isIPv4MappedAddress()) {
      parsed = parsed.toIPv4Address();
    } else if (parsed.match(NAT64)) {
      parsed = ipaddr.fromByteArray(parsed.toByteArray().slice(12));
    } else if (parsed.match(IPV4_COMPATIBLE)) {
      return false;
    }
  }
  return parsed.range() === 'unicast';
}

/** The address part of a URL's hostname when it is an IP literal (IPv6 loses its brackets), else null. */
function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
}

/**
 * Checks a webhook URL without DNS, as at creation: it must parse (WHATWG), be at most 2048 characters,
 * use https (http only with `allowHttp`), carry no user name or password (they would be sent to, and
 * logged by, whoever receives the delivery), and not name a refused IP literal or `localhost` (or a
 * name under `.localhost`, which resolvers answer locally). Other names are only known after
 * resolution, in resolveUrl. Returns the parsed URL; throws UrlRefused.
 */
export function checkUrlSyntax(url: string, policy: UrlPolicy): URL {
  if (url.length > MAX_URL_LENGTH) throw new UrlRefused('invalid_url', `the URL is longer than ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UrlRefused('invalid_url', 'the URL does not parse');
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && policy.allowHttp)) {
    throw new UrlRefused('scheme_not_allowed', `the scheme ${parsed.protocol} is not allowed; use https:`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new UrlRefused('user_info_not_allowed', 'the URL may not carry a user name or password');
  }
  const literal = ipLiteral(parsed.hostname);
  if (literal !== null) {
    if (!addressAllowed(literal, policy)) throw new UrlRefused('address_not_allowed', `the address ${literal} is not allowed`);
  } else if (!policy.allowPrivate) {
    // URL lower-cases the name; a trailing dot names the same host.
    const name = parsed.hostname.replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) {
      throw new UrlRefused('address_not_allowed', `the host ${parsed.hostname} is not allowed`);
    }
  }
  return parsed;
}

/** Asks the name servers directly: a slow one holds no thread of the pool other lookups share. */
const resolver = new dnsPromises.Resolver({ timeout: 2000, tries: 2 });

/**
 * A name's addresses from the name servers (A and AAAA at once), without the thread pool that
 * `dns.lookup` uses: four lookups hung on an attacker's name server would otherwise hold every
 * thread, and every other webhook's lookups with them.
 */
async function resolveAddresses(hostname: string): Promise<LookupAddress[]> {
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
  const addresses = [
    ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
    ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
  ];
  if (addresses.length === 0 && v4.status === 'rejected') throw v4.reason;
  return addresses;
}

/**
 * Checks a webhook URL right before a delivery: the syntax checks above, then the host's addresses.
 * An IP literal is used as is; a name is resolved with `lookup` (injectable for tests; by default the
 * name servers, or the system's lookup when private addresses are allowed), and if ANY of
 * its addresses is refused the URL is refused, since the connection could otherwise land on it. The
 * caller must connect to the returned address (sending the URL's host name for TLS and the Host
 * header), never resolve the name again: a second answer could differ from the checked one.
 */
export async function resolveUrl(
  url: string,
  policy: UrlPolicy,
  lookup?: (hostname: string, options: LookupAllOptions) => Promise<LookupAddress[]>,
): Promise<{ url: URL; address: string; family: 4 | 6 }> {
  // With private addresses allowed (development), the system's lookup also knows names of the hosts file.
  const find: (hostname: string, options: LookupAllOptions) => Promise<LookupAddress[]> =
    lookup ?? (policy.allowPrivate ? dnsPromises.lookup : resolveAddresses);
  const parsed = checkUrlSyntax(url, policy);
  const literal = ipLiteral(parsed.hostname);
  let addresses: string[];
  if (literal !== null) {
    addresses = [literal];
  } else {
    let answers: LookupAddress[];
    const timer = new AbortController();
    try {
      answers = await Promise.race([
        find(parsed.hostname, { all: true, verbatim: true }),
        sleep(DNS_TIMEOUT_MS, undefined, { signal: timer.signal }).then(() => {
          throw Object.assign(new Error('DNS timeout'), { code: 'ETIMEOUT' });
        }),
      ]);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | null)?.code ?? 'error';
      throw new UrlRefused('dns_failed', `the host ${parsed.hostname} did not resolve (${code})`);
    } finally {
      timer.abort();
    }
    addresses = answers.map((answer) => answer.address);
  }
  const first = addresses[0];
  if (first === undefined) throw new UrlRefused('dns_failed', `the host ${parsed.hostname} resolved to no address`);
  const refused = addresses.find((address) => isIP(address) === 0 || !addressAllowed(address, policy));
  if (refused !== undefined) {
    throw new UrlRefused('address_not_allowed', `the host ${parsed.hostname} resolves to ${refused}, which is not allowed`);
  }
  return { url: parsed, address: first, family: isIP(first) === 6 ? 6 : 4 };
}
