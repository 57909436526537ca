/**
 * Calls to URLs the account typed (webhook receivers, shop CMSs) without letting them reach
 * inside our network: the address is checked at connect time, after DNS (a name may resolve
 * to 127.0.0.1 today and not yesterday), on every address the name gives, and redirects are
 * never followed (a 3xx is an answer like any other non-2xx). A setting lets self-hosted
 * shops and tests reach private addresses.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import type { FieldErrorCollector } from '../../platform/errors.js';

/** Loopback, private, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast and reserved ranges. */
const BLOCKED = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  BLOCKED.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible (::a.b.c.d, deprecated; reaches a.b.c.d where routed)
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(prefix, bits, 'ipv6');

/** The 16 bytes of an IPv6 address (`net.isIPv6` already said it is one). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  // a trailing dotted quad is two groups
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.flatMap((group) => {
    const value = Number.parseInt(group || '0', 16);
    return [value >> 8, value & 0xff];
  });
}

const dotted = (bytes: number[]) => bytes.join('.');

/**
 * The IPv4 address an IPv6 one carries and reaches through a translator or tunnel: IPv4-mapped
 * (::ffff:0:0/96) and IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96, local 64:ff9b:1::/48),
 * 6to4 (2002::/16) and Teredo's client (2001::/32, inverted). Null for any other address.
 */
export function embeddedIPv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return dotted(bytes.slice(12));
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) return dotted(bytes.slice(12));
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) {
    if (zeros(4, 12) || (bytes[4] === 0 && bytes[5] === 1)) return dotted(bytes.slice(12));
  }
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return dotted(bytes.slice(2, 6));
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0 && bytes[3] === 0) {
    return dotted(bytes.slice(12).map((byte) => byte ^ 0xff));
  }
  return null;
}

/** Refused before any byte was sent: the target is not a public address. */
export class BlockedTargetError extends Error {
  override readonly name = 'BlockedTargetError';
}

const BLOCKED_WORDS = 'a loopback, private, link-local or reserved address';

/** Why `address` may not be called, or null when it is a public address. Names no address: a DNS answer is not echoed. */
export function blockedReason(address: string): string | null {
  const family = net.isIP(address);
  if (family === 0) return null;
  if (family === 6) {
    // ::ffff:10.0.0.1, 64:ff9b::a00:1, 2002:a00:1:: reach 10.0.0.1
    const carried = embeddedIPv4(address);
    if (carried && BLOCKED.check(carried, 'ipv4')) return `${BLOCKED_WORDS} (carried in an IPv6 address)`;
  }
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6') ? BLOCKED_WORDS : null;
}

const FAILURE_WORDS: Record<string, string> = {
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved just now',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ETIMEDOUT: 'the connection timed out',
  EPIPE: 'the connection was closed while sending',
};

/**
 * A failed call in words for the account to read (a delivery's error): the kind of failure,
 * never the addresses a name resolved to (Node's own messages carry them: `connect ECONNREFUSED 10.1.2.3:80`).
 */
export function describeCallFailure(error: unknown): string {
  if (error instanceof BlockedTargetError) return `refused: ${error.message}`;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (FAILURE_WORDS[code]) return FAILURE_WORDS[code];
    if (/CERT|SSL|TLS/.test(code)) return `the TLS certificate or handshake was refused (${code})`;
    return `the call failed (${code})`;
  }
  const message = error instanceof Error ? error.message : '';
  return /^no answer within \d+ ms$/.test(message) ? message : 'the call failed';
}

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options }, (error, address, family) => {
      if (error) return callback(error, address, family);
      const addresses = Array.isArray(address) ? address.map((entry: dns.LookupAddress) => entry.address) : [address];
      if (!allowPrivate) {
        for (const each of addresses) {
          const reason = blockedReason(each);
          if (reason) return callback(new BlockedTargetError(`${hostname} resolves to ${reason}`), address, family);
        }
      }
      callback(null, address, family);
    });
  };
}

/**
 * Kept-alive connections per scheme and setting: a socket is checked when it connects, so
 * reusing it reaches the address already checked; a socket made while private targets were
 * allowed is never lent to a call that refuses them.
 */
const agents = new Map<string, http.Agent>();
function agentFor(protocol: string, allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, maxSockets: 8, maxFreeSockets: 4, timeout: 30_000 };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

export interface OutgoingCall {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** How many bytes of the answer to keep. */
  keepBytes?: number;
}

export interface CallAnswer {
  status: number;
  /** The first `keepBytes` of the body (the rest is read and dropped). */
  head: string;
  contentType: string;
}

/** The URL is one we may call at all (scheme; an IP literal checked here, a name at connect time). */
export function checkTargetUrl(url: string, allowPrivate: boolean): URL {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new BlockedTargetError(`${target.protocol} URLs are not called`);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate) {
    const reason = blockedReason(host);
    if (reason) throw new BlockedTargetError(`${host} is ${reason}`);
    if (host === 'localhost' || host.endsWith('.localhost')) throw new BlockedTargetError(`${host} is a loopback name`);
  }
  return target;
}

/**
 * A receiver's URL as the account types it (a webhook's url, a CMS's apiUrl), trimmed: an
 * http(s) URL with no user name or password, not an address we refuse to call; a refusal is
 * added on `field`. Names are checked again at delivery, after DNS.
 */
export function checkTypedUrl(
  raw: string,
  field: string,
  problems: FieldErrorCollector,
  allowPrivate: boolean,
): string {
  const url = raw.trim();
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) problems.add(field, 'must not carry a user name or password');
    checkTargetUrl(url, allowPrivate);
  } catch (error) {
    problems.add(
      field,
      error instanceof BlockedTargetError ? `is refused: ${error.message}` : 'must be an absolute http or https URL',
    );
  }
  return url;
}

/**
 * One HTTP exchange under a deadline: an answer of any status, or an error (BlockedTargetError,
 * a timeout, a refused connection). Never follows a redirect.
 */
export function call(request: OutgoingCall): Promise<CallAnswer> {
  return new Promise<CallAnswer>((resolve, reject) => {
    let target: URL;
    try {
      target = checkTargetUrl(request.url, request.allowPrivate);
    } catch (error) {
      reject(error);
      return;
    }
    const keep = request.keepBytes ?? 1024;
    const client = target.protocol === 'https:' ? https : http;
    const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
    const outgoing = client.request(
      target,
      {
        method: request.method,
        headers: { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        lookup: guardedLookup(request.allowPrivate),
        agent: agentFor(target.protocol, request.allowPrivate),
      },
      (answer) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        answer.on('data', (chunk: Buffer) => {
          if (kept < keep) {
            chunks.push(chunk);
            kept += chunk.length;
          }
        });
        answer.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: answer.statusCode ?? 0,
            head: Buffer.concat(chunks).subarray(0, keep).toString('utf8'),
            contentType: String(answer.headers['content-type'] ?? ''),
          });
        });
        answer.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(
      () => outgoing.destroy(new Error(`no answer within ${request.timeoutMs} ms`)),
      request.timeoutMs,
    );
    outgoing.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    outgoing.end(body);
  });
}
