import { describe, expect, it, vi } from 'vitest';
import {
  checkAddress,
  checkHostName,
  OutboundUrlError,
  validateOutboundUrl,
  type Deployment,
  type Resolver,
} from '../../src/net/index.js';

type Verdict = 'allow' | 'refuse';

const matrix: [ip: string, cloud: Verdict, onprem: Verdict][] = [
  ['8.8.8.8', 'allow', 'allow'],
  ['2606:4700::1111', 'allow', 'allow'],
  ['10.0.0.1', 'refuse', 'allow'],
  ['172.16.5.4', 'refuse', 'allow'],
  ['192.168.1.1', 'refuse', 'allow'],
  ['127.0.0.1', 'refuse', 'allow'],
  ['::1', 'refuse', 'allow'],
  ['fc00::1', 'refuse', 'allow'],
  ['fd12::1', 'refuse', 'allow'],
  ['100.64.0.1', 'refuse', 'allow'],
  ['::ffff:10.0.0.1', 'refuse', 'allow'],
  ['::ffff:127.0.0.1', 'refuse', 'allow'],
  ['0.0.0.0', 'refuse', 'refuse'],
  ['::', 'refuse', 'refuse'],
  ['224.0.0.1', 'refuse', 'refuse'],
  ['ff02::1', 'refuse', 'refuse'],
  ['169.254.169.254', 'refuse', 'refuse'],
  ['::ffff:169.254.169.254', 'refuse', 'refuse'],
  ['fe80::1', 'refuse', 'refuse'],
  ['255.255.255.255', 'refuse', 'refuse'],
  ['192.0.2.10', 'refuse', 'refuse'],
  ['198.18.0.1', 'refuse', 'refuse'],
  ['2001:db8::1', 'refuse', 'refuse'],
  // 6to4, Teredo, NAT64 and IPv4-compatible forms are judged by the IPv4 address they carry.
  ['2002:a00:1::', 'refuse', 'allow'],
  ['2002:808:808::', 'allow', 'allow'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'refuse', 'allow'],
  ['64:ff9b::a9fe:a9fe', 'refuse', 'refuse'],
  ['::7f00:1', 'refuse', 'allow'],
  ['not-an-ip', 'refuse', 'refuse'],
];

describe('checkAddress', () => {
  it.each(matrix)('%s: %s in cloud, %s on-prem', (ip, cloud, onprem) => {
    expect(checkAddress(ip, 'cloud').allowed).toBe(cloud === 'allow');
    expect(checkAddress(ip, 'onprem').allowed).toBe(onprem === 'allow');
  });

  it('explains a refusal in one sentence', () => {
    expect(checkAddress('10.0.0.1', 'cloud')).toEqual({ allowed: false, reason: 'address 10.0.0.1 is in a private range' });
    expect(checkAddress('169.254.169.254', 'onprem')).toEqual({
      allowed: false,
      reason: 'address 169.254.169.254 is link-local',
    });
    expect(checkAddress('2002:a00:1::', 'cloud')).toEqual({
      allowed: false,
      reason: 'address 2002:a00:1:: embeds 10.0.0.1, which is in a private range',
    });
  });
});

describe('checkHostName', () => {
  const internal = [
    'localhost',
    'LOCALHOST.',
    'api.localhost',
    'printer.local',
    'metadata.google.internal',
    'db.internal',
    'router.lan',
    'nas.home.arpa',
    'intranet',
  ];

  it.each(internal)('refuses %s in cloud and allows it on-prem', (name) => {
    expect(checkHostName(name, 'cloud')).toEqual({ allowed: false, reason: `host ${name} is an internal name` });
    expect(checkHostName(name, 'onprem')).toEqual({ allowed: true });
  });

  it('allows public names', () => {
    expect(checkHostName('hooks.example.com', 'cloud')).toEqual({ allowed: true });
    expect(checkHostName('local.example.com', 'cloud')).toEqual({ allowed: true });
  });
});

describe('validateOutboundUrl', () => {
  const answers =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  async function refusal(rawUrl: string, deployment: Deployment, resolve: Resolver = answers('8.8.8.8')) {
    const error = await validateOutboundUrl(rawUrl, { deployment, resolve }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(OutboundUrlError);
    expect((error as OutboundUrlError).message).toBe((error as OutboundUrlError).reason);
    return (error as OutboundUrlError).reason;
  }

  it('accepts a public https URL and returns every resolved address', async () => {
    const result = await validateOutboundUrl('https://hooks.example.com/in?x=1', {
      deployment: 'cloud',
      resolve: answers('93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'),
    });
    expect(result.url.href).toBe('https://hooks.example.com/in?x=1');
    expect(result.addresses).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
  });

  it('refuses malformed URLs, other schemes and credentials', async () => {
    expect(await refusal('not a url', 'onprem')).toBe('URL is not valid');
    expect(await refusal('ftp://example.com/file', 'onprem')).toBe('URL must use http or https');
    expect(await refusal('file:///etc/passwd', 'onprem')).toBe('URL must use http or https');
    expect(await refusal('https://user:secret@example.com/', 'onprem')).toBe('URL must not contain credentials');
    expect(await refusal('https://user@example.com/', 'onprem')).toBe('URL must not contain credentials');
  });

  it('refuses port 0 (and keeps refusing ports WHATWG URL refuses), on IP literals and names alike', async () => {
    const reason = 'URL port 0 is not valid: it must be between 1 and 65535';
    expect(await refusal('http://93.184.215.14:0/', 'cloud')).toBe(reason);
    expect(await refusal('https://hooks.example.com:00/in', 'cloud')).toBe(reason);
    expect(await refusal('http://127.0.0.1:0/', 'onprem')).toBe(reason);
    expect(await refusal('http://93.184.215.14:65536/', 'cloud')).toBe('URL is not valid');
    const ok = await validateOutboundUrl('http://93.184.215.14:65535/', { deployment: 'cloud' });
    expect(ok.url.port).toBe('65535');
  });

  it('refuses internal names in cloud before any lookup', async () => {
    const resolve = vi.fn(answers('8.8.8.8'));
    expect(await refusal('http://example.internal/', 'cloud', resolve)).toBe('host example.internal is an internal name');
    expect(await refusal('http://localhost:3000/', 'cloud', resolve)).toBe('host localhost is an internal name');
    expect(resolve).not.toHaveBeenCalled();
  });

  it('refuses when any resolved address is refused', async () => {
    expect(await refusal('https://mixed.example.com/', 'cloud', answers('8.8.8.8', '10.1.2.3'))).toBe(
      'address 10.1.2.3 is in a private range',
    );
  });

  it('reports names that do not resolve', async () => {
    const fails: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await refusal('https://nowhere.example.com/', 'cloud', fails)).toBe('could not resolve host nowhere.example.com');
    expect(await refusal('https://empty.example.com/', 'cloud', answers())).toBe('could not resolve host empty.example.com');
  });

  it('checks IP literals directly, including bracketed IPv6 and odd IPv4 spellings', async () => {
    const resolve = vi.fn(answers('8.8.8.8'));
    expect(await refusal('http://[::1]:8080/', 'cloud', resolve)).toBe('address ::1 is a loopback address');
    expect(await refusal('http://0x7f.1/', 'cloud', resolve)).toBe('address 127.0.0.1 is a loopback address');
    expect(await refusal('http://[::ffff:169.254.169.254]/', 'onprem', resolve)).toBe(
      'address ::ffff:a9fe:a9fe is link-local',
    );
    const onprem = await validateOutboundUrl('http://[::1]:8080/', { deployment: 'onprem', resolve });
    expect(onprem.addresses).toEqual([{ address: '::1', family: 6 }]);
    expect(resolve).not.toHaveBeenCalled();
  });
});
