import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { DeliveryFailureClass } from '@openq/contracts';
import { ConfigError } from './env';

/*
 * [openq] issue #27 (SPEC §12.2, ARCHITECTURE rule 12) the ONE way openq sends a request to an
 * address a user gave (notification webhooks and Slack now, engine subscriptions next):
 *
 * - the name is resolved once, and every address it resolves to must be public — loopback,
 *   RFC 1918, link-local (169.254.169.254 included), CGNAT, unique-local, multicast, unspecified,
 *   IPv4-mapped and the other IPv6 forms that embed an IPv4 address are refused — unless the
 *   operator's allow-list (`OPENQ_NOTIFY_ALLOWED_TARGETS`) names the host or holds the address;
 * - the connection goes to the address that was checked (a `lookup` that answers it), so a name
 *   that resolves elsewhere a moment later (DNS rebinding) changes nothing;
 * - credentials in the URL (`https://hooks.slack.com@127.0.0.1/`) are refused outright;
 * - redirects are never followed (a 3xx is `resposta_invalida`), the whole exchange has a
 *   deadline, and at most `maxResponseBytes` of the answer are read.
 *
 * Failures carry a class (what the API may show) and a detail (what the operator's log shows).
 */

/** Resolves a host name to its addresses (tests inject one; default: the system resolver). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface OutboundPolicy {
  /** Host names the operator allows whatever they resolve to (lower case). */
  allowedHosts: ReadonlySet<string>;
  /** Address ranges the operator allows. */
  allowedRanges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
  resolve?: Resolver;
}

/** No private target allowed: the default of every process. */
export const PUBLIC_ONLY: OutboundPolicy = { allowedHosts: new Set(), allowedRanges: [] };

const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*\.?$/i;

/**
 * `OPENQ_NOTIFY_ALLOWED_TARGETS`: comma-separated host names, addresses and CIDRs
 * (`hooks.internal, 10.0.0.0/8, 127.0.0.1, fd00::/8`). A bad entry is a ConfigError naming it.
 */
export function parseAllowedTargets(
  raw: string | undefined,
  variable = 'OPENQ_NOTIFY_ALLOWED_TARGETS',
): OutboundPolicy {
  const allowedHosts = new Set<string>();
  const allowedRanges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const entry of (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')) {
    const bare = entry.replace(/^\[(.*)\]$/, '$1');
    if (bare.includes('/')) {
      try {
        const [address, bits] = ipaddr.parseCIDR(bare);
        allowedRanges.push([
          normalize(address),
          address.kind() === 'ipv6' && isMapped(address) ? bits - 96 : bits,
        ]);
        continue;
      } catch {
        throw new ConfigError(`Invalid configuration: ${variable} has "${entry}", which is not a CIDR`);
      }
    }
    if (ipaddr.isValid(bare)) {
      const address = normalize(ipaddr.parse(bare));
      allowedRanges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      continue;
    }
    if (!HOST_NAME.test(entry))
      throw new ConfigError(
        `Invalid configuration: ${variable} has "${entry}", which is not a host name, an address or a CIDR`,
      );
    allowedHosts.add(entry.toLowerCase().replace(/\.$/, ''));
  }
  return { allowedHosts, allowedRanges };
}

const isMapped = (a: ipaddr.IPv4 | ipaddr.IPv6): boolean =>
  a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress();

/** An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is the IPv4 address it maps. */
function normalize(a: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return isMapped(a) ? (a as ipaddr.IPv6).toIPv4Address() : a;
}

/**
 * Public: ipaddr.js's `unicast` range and nothing else. Everything it names — private, loopback,
 * linkLocal, carrierGradeNat, uniqueLocal, multicast, unspecified, broadcast, reserved, and the
 * IPv6 forms that carry an IPv4 address inside (6to4, teredo, rfc6052/rfc6145 NAT64) — is not.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return normalize(ipaddr.parse(address)).range() === 'unicast';
}

function allowedAddress(policy: OutboundPolicy, address: string): boolean {
  const a = normalize(ipaddr.parse(address));
  return policy.allowedRanges.some(
    ([range, bits]) => range.kind() === a.kind() && (a as ipaddr.IPv4).match(range as ipaddr.IPv4, bits),
  );
}

/** The operator allows this host by name, or it is an address literal in an allowed range. */
export function operatorAllowsHost(policy: OutboundPolicy, hostname: string): boolean {
  const host = hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.$/, '');
  if (policy.allowedHosts.has(host)) return true;
  return ipaddr.isValid(host) && allowedAddress(policy, host);
}

/** Why an outbound request failed: the class (for the API) and the detail (for the log only). */
export class OutboundError extends Error {
  override name = 'OutboundError';
  constructor(
    readonly failure: DeliveryFailureClass,
    /** What happened, for the operator's log: no URL path or query (they may hold a token). */
    readonly detail: string,
    /** Worth trying again later (a timeout, a refused connection, a 5xx). */
    readonly transient: boolean,
  ) {
    super(`${failure}: ${detail}`);
  }
}

/** A target that passed the rules: the URL and the address to connect to. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * Checks `raw` against the rules: http(s), no credentials, every address the host resolves to
 * public or allowed. Throws OutboundError `destino_nao_permitido` (not transient) when it is
 * not; `conexao_recusada` (transient) when the name does not resolve now.
 */
export async function checkOutboundTarget(raw: string, policy: OutboundPolicy): Promise<CheckedTarget> {
  const refuse = (why: string) => new OutboundError('destino_nao_permitido', why, false);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refuse(`scheme ${url.protocol} is not http(s)`);
  if (url.username !== '' || url.password !== '')
    throw refuse(`credentials in the URL (user@host) are not allowed (host ${url.hostname})`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const where = `${url.protocol}//${url.host}`;
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv4' ? 4 : 6 }];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolver)(host);
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'lookup failed';
      throw new OutboundError('conexao_recusada', `${where}: ${code}`, true);
    }
    if (addresses.length === 0) throw new OutboundError('conexao_recusada', `${where}: no address`, true);
  }
  const hostAllowed = policy.allowedHosts.has(host.replace(/\.$/, ''));
  for (const { address } of addresses) {
    if (!ipaddr.isValid(address)) throw refuse(`${where} resolved to "${address}"`);
    if (hostAllowed || isPublicAddress(address) || allowedAddress(policy, address)) continue;
    throw refuse(`${where} resolves to ${address}, which is not public and not in the allow-list`);
  }
  const first = addresses[0]!;
  const address = normalize(ipaddr.parse(first.address));
  return { url, address: address.toString(), family: address.kind() === 'ipv4' ? 4 : 6 };
}

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface OutboundRequest {
  method?: 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string;
  /** The whole exchange, connect to last byte read. */
  timeoutMs: number;
  /** At most this much of the answer is read (default 64 KiB); the rest is dropped. */
  maxResponseBytes?: number;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The first `maxResponseBytes` of the body, as UTF-8. */
  body: string;
}

const TLS_CODES =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

/**
 * Sends one request through the rules (checkOutboundTarget) to the checked address. Answers any
 * status but 3xx (the caller judges 4xx and 5xx); throws OutboundError for the rest.
 */
export async function guardedRequest(
  raw: string,
  request: OutboundRequest,
  policy: OutboundPolicy,
): Promise<OutboundResponse> {
  const target = await checkOutboundTarget(raw, policy);
  const { url } = target;
  const where = `${url.protocol}//${url.host}`;
  const maxBytes = request.maxResponseBytes ?? 65_536;
  // The connection goes to the checked address, whatever the name resolves to by now.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const response = await new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    const fail = (error: OutboundError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(error);
    };
    const timer = setTimeout(
      () => fail(new OutboundError('tempo_esgotado', `${where}: no answer in ${request.timeoutMs} ms`, true)),
      request.timeoutMs,
    );
    const req = send(
      url,
      {
        method: request.method ?? 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        lookup,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          res.destroy();
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        };
        res.on('data', (chunk: Buffer) => {
          const room = maxBytes - size;
          if (room > 0) chunks.push(chunk.subarray(0, room));
          size += chunk.length;
          // Enough read: the status is known, the rest of the answer is not wanted.
          if (size >= maxBytes) done();
        });
        res.on('end', done);
        res.on('error', () => done());
      },
    );
    req.on('error', (error: Error & { code?: string }) => {
      const code = error.code ?? error.name;
      if (TLS_CODES.test(code)) fail(new OutboundError('tls_invalido', `${where}: ${code}`, false));
      else if (code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_'))
        fail(new OutboundError('resposta_invalida', `${where}: ${code}`, false));
      else fail(new OutboundError('conexao_recusada', `${where}: ${code} (${target.address})`, true));
    });
    req.end(request.body);
  });
  if (response.status >= 300 && response.status < 400)
    throw new OutboundError(
      'resposta_invalida',
      `${where}: HTTP ${response.status}, a redirect (not followed)`,
      false,
    );
  if (response.status < 200 || response.status >= 600)
    throw new OutboundError('resposta_invalida', `${where}: HTTP ${response.status}`, false);
  return response;
}

/** The class of an HTTP status that is not a success: `http_4xx` or `http_5xx`. */
export function statusClass(status: number): DeliveryFailureClass {
  return status >= 500 ? 'http_5xx' : 'http_4xx';
}
