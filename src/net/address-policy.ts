import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Cloud refuses everything but public unicast; on-prem also reaches the customer's own network. */
export type Deployment = 'cloud' | 'onprem';

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface ValidatedUrl {
  url: URL;
  addresses: ResolvedAddress[];
}

/** Why a URL may not be called; `reason` is safe to show to the user who supplied the URL. */
export class OutboundUrlError extends Error {
  override readonly name = 'OutboundUrlError';
  constructor(readonly reason: string) {
    super(reason);
  }
}

const RANGE_DESCRIPTIONS: Record<string, string> = {
  private: 'is in a private range',
  loopback: 'is a loopback address',
  carrierGradeNat: 'is in the carrier-grade NAT range',
  uniqueLocal: 'is a unique-local address',
  linkLocal: 'is link-local',
  unspecified: 'is unspecified',
  multicast: 'is multicast',
  broadcast: 'is the broadcast address',
};

/** Ranges an on-prem install may call besides public unicast; link-local (cloud metadata) never is. */
const ONPREM_EXTRA_RANGES = new Set(['private', 'loopback', 'carrierGradeNat', 'uniqueLocal']);

const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa'];

export function checkAddress(ip: string, deployment: Deployment): AddressVerdict {
  if (isIP(ip) === 0) return { allowed: false, reason: `address ${ip} is not a valid IP address` };
  // process() unwraps ::ffff:a.b.c.d so the mapped form is judged as the IPv4 address it reaches.
  const addr = ipaddr.process(ip);
  const embedded = addr instanceof ipaddr.IPv6 ? embeddedIPv4(addr) : null;
  const range = (embedded ?? addr).range();
  if (range === 'unicast' || (deployment === 'onprem' && ONPREM_EXTRA_RANGES.has(range))) return { allowed: true };
  const description = RANGE_DESCRIPTIONS[range] ?? 'is in a reserved range';
  const reason = embedded
    ? `address ${ip} embeds ${embedded.toString()}, which ${description}`
    : `address ${ip} ${description}`;
  return { allowed: false, reason };
}

/**
 * IPv4 address carried inside an IPv6 transition form (6to4, Teredo client, NAT64, IPv4-translated,
 * IPv4-compatible), which is where such a packet may end up. The NAT64 local-use /48 has no fixed
 * position for it, so it is reported as itself (a reserved range).
 */
function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = addr.parts;
  const fromWords = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  switch (addr.range()) {
    case '6to4':
      return fromWords(p[1], p[2]);
    case 'teredo':
      return fromWords(~p[6] & 0xffff, ~p[7] & 0xffff);
    case 'rfc6052':
      return p[2] === 0 ? fromWords(p[6], p[7]) : null;
    case 'rfc6145':
      return fromWords(p[6], p[7]);
    case 'unicast':
      return p.slice(0, 6).every((word) => word === 0) ? fromWords(p[6], p[7]) : null;
    default:
      return null;
  }
}

/** Name rule applied before any lookup; IP literals are not names and go through checkAddress. */
export function checkHostName(hostname: string, deployment: Deployment): AddressVerdict {
  if (deployment === 'onprem') return { allowed: true };
  const name = hostname.toLowerCase().replace(/\.$/, '');
  const internal =
    name === 'localhost' || !name.includes('.') || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix));
  return internal ? { allowed: false, reason: `host ${hostname} is an internal name` } : { allowed: true };
}

const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, order: 'verbatim' });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** Checks scheme, credentials, host name and every resolved address; throws OutboundUrlError on the first refusal. */
export async function validateOutboundUrl(
  rawUrl: string,
  opts: { deployment: Deployment; resolve?: Resolver },
): Promise<ValidatedUrl> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new OutboundUrlError('URL is not valid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundUrlError('URL must use http or https');
  if (url.username || url.password) throw new OutboundUrlError('URL must not contain credentials');
  if (!url.hostname) throw new OutboundUrlError('URL must have a host');
  // WHATWG URL refuses ports above 65535 but keeps 0, which no server listens on.
  if (url.port !== '' && !(Number(url.port) >= 1 && Number(url.port) <= 65535)) {
    throw new OutboundUrlError(`URL port ${url.port} is not valid: it must be between 1 and 65535`);
  }

  const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(literal)) return { url, addresses: [checked(literal, opts.deployment)] };

  const nameVerdict = checkHostName(url.hostname, opts.deployment);
  if (!nameVerdict.allowed) throw new OutboundUrlError(nameVerdict.reason);

  let answers: ResolvedAddress[];
  try {
    answers = await (opts.resolve ?? systemResolver)(url.hostname);
  } catch {
    throw new OutboundUrlError(`could not resolve host ${url.hostname}`);
  }
  if (answers.length === 0) throw new OutboundUrlError(`could not resolve host ${url.hostname}`);
  // Every answer must pass: the connection could otherwise land on whichever one the OS prefers.
  return { url, addresses: answers.map(({ address }) => checked(address, opts.deployment)) };
}

function checked(address: string, deployment: Deployment): ResolvedAddress {
  const verdict = checkAddress(address, deployment);
  if (!verdict.allowed) throw new OutboundUrlError(verdict.reason);
  return { address, family: isIP(address) === 6 ? 6 : 4 };
}
