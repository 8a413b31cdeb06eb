import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Rejection } from '@frete/domain';

/**
 * SSRF rules for webhook targets, in every environment (homologação too: a sandbox credential must not reach the
 * service's own network either). A target must be HTTPS and every address its host resolves to must be public
 * unicast: loopback, private, link-local, unique-local, CGNAT, multicast, reserved and the IPv6 forms that embed an
 * IPv4 address are refused. Hosts of `WEBHOOKS_ALLOWED_HOSTS` are exempt (plain HTTP included).
 */
export class DestinoRecusado extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinoRecusado';
  }
}

/** The URL's host as compared with the allow-list: lower case, IPv6 without brackets. */
export const hostDe = (url: URL): string => url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');

/** Null when the address may be reached, else why not. */
export function motivoEnderecoRecusado(address: string): string | null {
  if (!ipaddr.isValid(address)) return `'${address}' is not an IP address`;
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : `${address} is a ${range} address`;
}

type Resolver = (host: string) => Promise<string[]>;

export const resolverDns: Resolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses.map((a) => a.address)))),
  );

/** Whether the allow-list exempts this URL's host. */
export const liberado = (url: URL, allowedHosts: readonly string[]): boolean => allowedHosts.includes(hostDe(url));

/** Throws `DestinoRecusado` when the target may not be reached (resolving its host name). */
export async function verificarDestino(raw: string, allowedHosts: readonly string[], resolver: Resolver = resolverDns): Promise<URL> {
  const url = new URL(raw);
  if (liberado(url, allowedHosts)) return url;
  if (url.protocol !== 'https:') throw new DestinoRecusado(`the URL must be https (got ${url.protocol.replace(':', '')})`);
  const host = hostDe(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolver(host);
    } catch (err) {
      throw new DestinoRecusado(`the host ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (addresses.length === 0) throw new DestinoRecusado(`the host ${host} does not resolve`);
  }
  for (const a of addresses) {
    const motivo = motivoEnderecoRecusado(a);
    if (motivo) throw new DestinoRecusado(`the host ${host} is not a public address: ${motivo}`);
  }
  return url;
}

/** The 400 a route answers for a refused target. */
export async function exigirDestino(raw: string, allowedHosts: readonly string[], resolver?: Resolver): Promise<void> {
  try {
    await verificarDestino(raw, allowedHosts, resolver);
  } catch (err) {
    if (err instanceof DestinoRecusado) throw new Rejection('webhook_destino_recusado', err.message);
    throw err;
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that refuses non-public addresses at connection time: the address checked is the
 * address connected to, so a DNS answer that changed since the endpoint was created (rebinding) cannot slip through.
 */
export function lookupSeguro(hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void {
  dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    for (const a of wanted) {
      const motivo = motivoEnderecoRecusado(a.address);
      if (motivo)
        return callback(
          Object.assign(new DestinoRecusado(`the host ${hostname} is not a public address: ${motivo}`), { code: 'EREFUSED_TARGET' }),
          [],
        );
    }
    if (wanted.length === 0) return callback(Object.assign(new Error(`the host ${hostname} does not resolve`), { code: 'ENOTFOUND' }), []);
    if (options.all) return callback(null, wanted);
    callback(null, wanted[0]!.address, wanted[0]!.family);
  });
}
