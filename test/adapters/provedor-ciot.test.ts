import { Pool } from 'pg';
import { type DeclaracaoCiotDados, type Environment } from '@frete/contracts';
import { Rejection } from '@frete/domain';
import {
  ciotSimulado,
  lerSentinelaCiot,
  lerSentinelaCiotNoTexto,
  type PedidoDeclaracaoCiot,
  ProvedorCiotIndisponivel,
  ProvedorCiotSimulado,
} from '@frete/adapters';
import { adaptadoresDe } from '@frete/application';
import { FiscalSchemas } from '@frete/documents';

const municipio = { codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' };
const declaracao: DeclaracaoCiotDados = {
  contratado: { documento: '11222333000181', nome: null },
  carga: { tipo: 'lotacao', peso_gramas: 1_000_000, contratantes: [] },
  rota: { origem: municipio, destino: { codigo_ibge: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ' }, trechos: [] },
  veiculos: [{ placa: 'ABC1D23', rntrc: null }],
  documentos_fiscais: [
    {
      chave: null,
      numero: '1',
      remetente: { documento: '11222333000181', nome: 'A' },
      destinatario: { documento: '52998224725', nome: 'B' },
    },
  ],
  valores: { frete_centavos: 100_00, parcelas: [] },
  motorista: { cpf: '52998224725', nome: 'JOAO' },
  vale_pedagio: null,
};
const pedido = (over: Partial<PedidoDeclaracaoCiot> = {}): PedidoDeclaracaoCiot => ({
  operacao_id: 'op-1',
  referencia_externa: null,
  ancora: null,
  declaracao,
  ...over,
});
const registrado = { ciot: '123456789012', codigo_verificacao: '1234' };

describe('CIOT provider port: simulated adapter (homologação)', () => {
  const clock = () => new Date('2026-11-22T12:00:00Z');
  const p = new ProvedorCiotSimulado({ clock });

  it('registers deterministically: 12-digit CIOT, 4-digit code, 15-digit protocol; the operation id does not matter, the declaration does', async () => {
    const a = await p.declarar(pedido());
    const b = await p.declarar(pedido({ operacao_id: 'op-2' }));
    expect(a).toEqual(b);
    expect(a).toMatchObject({
      tipo: 'registrado',
      ciot: expect.stringMatching(/^[0-9]{12}$/),
      codigo_verificacao: expect.stringMatching(/^[0-9]{4}$/),
      protocolo: expect.stringMatching(/^[0-9]{15}$/),
    });
    expect(a).toMatchObject(ciotSimulado(pedido()));
    const c = await p.declarar(pedido({ declaracao: { ...declaracao, valores: { ...declaracao.valores, frete_centavos: 100_01 } } }));
    expect(c.tipo === 'registrado' && a.tipo === 'registrado' && c.ciot !== a.ciot).toBe(true);
    const ancorado1 = ciotSimulado(pedido({ ancora: { cte_id: 'x', chave: '3'.repeat(44), sequencia: 1 } }));
    const ancorado2 = ciotSimulado(pedido({ ancora: { cte_id: 'y', chave: '3'.repeat(44), sequencia: 2 } }));
    expect(ancorado1.ciot).not.toBe(ancorado2.ciot);
  });

  it('sentinels: CIOT-PENDENTE is pending and registered on the follow-up; CIOT-RECUSAR is refused; also as a word of the observations', async () => {
    const pend = pedido({ referencia_externa: 'CIOT-PENDENTE' });
    expect(await p.declarar(pend)).toMatchObject({ tipo: 'pendente', protocolo: expect.stringMatching(/^[0-9]{15}$/) });
    expect(await p.consultarDeclaracao(pend, null)).toMatchObject({ tipo: 'registrado', ...ciotSimulado(pend) });
    expect(await p.declarar(pedido({ referencia_externa: 'CIOT-RECUSAR' }))).toMatchObject({ tipo: 'recusado', codigo: 'SIM-001' });
    expect(await p.declarar(pedido({ referencia_externa: 'ciot-recusar' }))).toMatchObject({ tipo: 'registrado' });
    expect(await p.declarar(pedido({ declaracao: { ...declaracao, observacoes: 'ENTREGA CIOT-PENDENTE.' } }))).toMatchObject({
      tipo: 'pendente',
    });
    expect(lerSentinelaCiot(' CIOT-PENDENTE')).toBeNull();
    expect(lerSentinelaCiotNoTexto('XCIOT-PENDENTE')).toBeNull();
    expect(lerSentinelaCiotNoTexto('CIOT-PENDENTE-2')).toBeNull();
    expect(lerSentinelaCiotNoTexto('OBS CIOT-RECUSAR')).toBe('recusar');
  });

  it('acts on a registered CIOT answer with a protocol derived from the act', async () => {
    const c1 = await p.cancelar(registrado, 'CARGA NAO EMBARCADA');
    expect(c1).toEqual(await p.cancelar(registrado, 'CARGA NAO EMBARCADA'));
    expect(c1).toMatchObject({ tipo: 'registrado', protocolo: expect.stringMatching(/^[0-9]{15}$/), registrado_em: clock() });
    const r = await p.retificar(registrado, declaracao);
    const e = await p.encerrar(registrado, null);
    expect(new Set([c1, r, e].map((x) => (x.tipo === 'registrado' ? x.protocolo : x.tipo))).size).toBe(3);
  });
});

describe('CIOT provider port: production without a provider (ruling 7)', () => {
  // The provider the process's one choice of adapters gives a deployment of that environment, no fiscal authority named.
  const pool = new Pool();
  const schemas = new FiscalSchemas();
  afterAll(async () => {
    await schemas.close();
    await pool.end();
  });
  const provedorCiotDoAmbiente = (environment: Environment) =>
    adaptadoresDe({
      config: { environment, autoridadeFiscal: { tipo: environment === 'homologacao' ? 'simulada' : 'nenhuma' } },
      pool,
      clock: () => new Date(),
      schemas,
      credencial: () => Promise.resolve(null),
    }).ciot;

  it('is unavailable and rejects every call with provedor_indisponivel, never inventing data', async () => {
    const p = provedorCiotDoAmbiente('producao');
    expect(p).toBeInstanceOf(ProvedorCiotIndisponivel);
    expect(p.disponivel).toBe(false);
    for (const call of [
      () => p.declarar(pedido()),
      () => p.consultarDeclaracao(pedido(), null),
      () => p.cancelar(registrado, 'x'),
      () => p.retificar(registrado, declaracao),
      () => p.encerrar(registrado, 1),
    ]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Rejection);
      expect((err as Rejection).code).toBe('provedor_indisponivel');
    }
    expect(provedorCiotDoAmbiente('homologacao').disponivel).toBe(true);
  });
});
