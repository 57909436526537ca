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
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(prefix, bits, 'ipv6');

/** Refused before any byte was sent: the target is not a public address. */
export class BlockedTargetError extends Error {
  override readonly name = 'BlockedTargetError';
}

/** Why `address` may not be called, or null when it is a public address. */
export function blockedReason(address: string): string | null {
  const family = net.isIP(address);
  if (family === 0) return null;
  // ::ffff:10.0.0.1 reaches 10.0.0.1
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blockedReason(mapped[1]);
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6')
    ? `${address} is a loopback, private, link-local or reserved address`
    : null;
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
    if (reason) throw new BlockedTargetError(reason);
    if (host === 'localhost' || host.endsWith('.localhost')) throw new BlockedTargetError(`${host} is a loopback name`);
  }
  return target;
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
