import { DestinoRecusado, duracao, lookupSeguro, motivoEnderecoRecusado, pausaDepois, verificarDestino } from '@frete/application';

describe('webhook targets (SSRF)', () => {
  const resolve = (addresses: string[]) => async () => addresses;

  it('accepts HTTPS to a host whose every address is public', async () => {
    await expect(
      verificarDestino('https://hooks.example.com/x', [], resolve(['93.184.216.34', '2606:2800:220:1::1'])),
    ).resolves.toBeInstanceOf(URL);
  });

  it.each([
    ['a host resolving to a private address (DNS changed since creation)', 'https://hooks.example.com/x', ['10.0.0.7']],
    ['a host with one private address among public ones', 'https://hooks.example.com/x', ['93.184.216.34', '192.168.1.1']],
    ['a host resolving to loopback', 'https://hooks.example.com/x', ['127.0.0.1']],
    ['a host resolving to IPv6 loopback', 'https://hooks.example.com/x', ['::1']],
    ['a host resolving to an IPv4-mapped private address', 'https://hooks.example.com/x', ['::ffff:10.0.0.1']],
    ['a host resolving to nothing', 'https://hooks.example.com/x', []],
  ])('refuses %s', async (_what, url, addresses) => {
    await expect(verificarDestino(url, [], resolve(addresses))).rejects.toBeInstanceOf(DestinoRecusado);
  });

  it('refuses a host that does not resolve', async () => {
    const falha = async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    };
    await expect(verificarDestino('https://nao-existe.invalid/x', [], falha)).rejects.toThrow(/does not resolve \(ENOTFOUND\)/);
  });

  it('lets the allow-list reach its hosts, plain HTTP and loopback included', async () => {
    await expect(verificarDestino('http://127.0.0.1:9000/x', ['127.0.0.1'], resolve([]))).resolves.toBeInstanceOf(URL);
    await expect(verificarDestino('http://[::1]:9000/x', ['::1'], resolve([]))).resolves.toBeInstanceOf(URL);
    await expect(verificarDestino('http://127.0.0.1:9000/x', ['localhost'], resolve([]))).rejects.toBeInstanceOf(DestinoRecusado);
  });

  it('names the range of a refused address', () => {
    expect(motivoEnderecoRecusado('169.254.169.254')).toBe('169.254.169.254 is a linkLocal address');
    expect(motivoEnderecoRecusado('fd00::1')).toBe('fd00::1 is a uniqueLocal address');
    expect(motivoEnderecoRecusado('8.8.8.8')).toBeNull();
  });

  it('refuses at connection time a name that resolves to loopback', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => lookupSeguro('localhost', {}, (e) => resolve(e)));
    expect(err).toBeInstanceOf(DestinoRecusado);
  });
});

describe('retry schedule', () => {
  it('doubles from the base up to the cap, with jitter between half and the whole', () => {
    const config = { retryBaseMs: 1000, retryMaxMs: 10_000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => pausaDepois(n, config, () => 1))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(pausaDepois(3, config, () => 0)).toBe(2000);
  });

  it('says the window in the disabling reason as people read it', () => {
    expect([3 * 86_400_000, 6 * 3_600_000, 1500].map(duracao)).toEqual(['3 days', '6 h', '1.5 s']);
  });
});
