import { isIP } from 'node:net';
import proxyaddr from '@fastify/proxy-addr';

/**
 * Whose `X-Forwarded-For` names the client (`TRUST_PROXY`): every per-address limit (the API's per-IP rate limit, the
 * panel's login throttle) counts the address this decides, so believing the header from anyone lets any client pick
 * its own address.
 *
 * - `off`: nobody's; the client is the socket's peer.
 * - `addresses`: the proxies at these addresses or CIDRs (and proxy-addr's `loopback`, `linklocal`, `uniquelocal`); the
 *   client is the last address of the chain that is not one of them, so a client cannot dodge by prepending entries.
 * - `hops`: the socket's peer and the header's last `hops - 1` entries are proxies, whoever they are. Only for a port
 *   that nothing but those proxies can reach: a client connecting directly picks its own address.
 */
export type TrustProxy = { kind: 'off' } | { kind: 'addresses'; addresses: string[] } | { kind: 'hops'; hops: number };

/** What a refusal says the variable must be, as the schema's variables do. */
export const TRUST_PROXY_DESCRIPTION =
  "false, a comma-separated list of the proxies' addresses or CIDRs (or loopback, linklocal, uniquelocal), or how many proxies are in front (an integer ≥ 1)";

const RANGE_NAMES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** The setting, or the line that refuses it (the configuration names every bad variable at once). */
export function readTrustProxy(text: string | undefined): TrustProxy | { refusal: string } {
  const value = text?.trim() ?? '';
  if (value === '' || /^false$/i.test(value)) return { kind: 'off' };
  const refused = (which?: string) => ({
    refusal: `TRUST_PROXY must be ${TRUST_PROXY_DESCRIPTION}, got '${text}'${which === undefined ? '' : ` ('${which}' is not one)`}`,
  });
  // Trusting every peer is the behaviour this setting replaces: a deployment has to say which proxies it has.
  if (/^true$/i.test(value))
    return {
      refusal:
        "TRUST_PROXY=true is refused: any client's X-Forwarded-For would be taken as its address; name the proxies' addresses or CIDRs, or how many there are",
    };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops >= 1 && Number.isSafeInteger(hops) ? { kind: 'hops', hops } : refused();
  }
  const addresses = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (addresses.length === 0) return refused();
  for (const entry of addresses) if (!validEntry(entry)) return refused(entry);
  return { kind: 'addresses', addresses };
}

/**
 * Plain dotted or colon notation only: proxy-addr also reads `10.1` or `167772161` as addresses, which in a list of
 * proxies is more likely a typing slip than intent.
 */
function validEntry(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const slash = entry.lastIndexOf('/');
  if (isIP(slash === -1 ? entry : entry.slice(0, slash)) === 0) return false;
  try {
    proxyaddr.compile(entry);
    return true;
  } catch {
    return false;
  }
}

/**
 * Fastify's `trustProxy` option for the setting. A hop count goes as a function: fastify 5.12 ignores a number
 * (it trusts nobody then), and only an explicit function keeps the count this setting documents.
 */
export function proxyTrust(setting: TrustProxy): false | ((address: string, hop: number) => boolean) {
  switch (setting.kind) {
    case 'off':
      return false;
    case 'addresses':
      return proxyaddr.compile(setting.addresses);
    case 'hops': {
      const hops = setting.hops;
      return (_address, hop) => hop < hops;
    }
  }
}
