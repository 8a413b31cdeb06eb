import { type CteLido, type DeclaracaoCiotDados } from '@frete/contracts';
import {
  aplicarRetificacao,
  avaliarCiotDoCte,
  bloqueioDaDeclaracao,
  type CiotCommand,
  ciotDecider,
  type CiotEvent,
  ciotQueOcupaOCte,
  cteIncompativelComCiot,
  exigirVagaDoCteLivre,
  fold,
  normalizarDeclaracaoCiot,
  normalizarRetificacao,
  Rejection,
} from '../src';
import { scenario } from './given-when-then';
import { declaracaoCiot } from './declaracao-ciot';

const { given } = scenario(ciotDecider);
const C = 'company-1';
const CNPJ = '11222333000181';
const ID = '0b7c4c35-8f5e-4d1e-9a43-0d3a4f1b2c3d';
const NFE = '35240911222333000181550010000000011000000010';

const input = declaracaoCiot;

const dados: DeclaracaoCiotDados = normalizarDeclaracaoCiot(input());
const fracionada: DeclaracaoCiotDados = {
  ...dados,
  carga: { ...dados.carga, tipo: 'fracionada', contratantes: [{ documento: CNPJ, nome: 'CONTRATANTE' }] },
};

const declarar = (over: Partial<Extract<CiotCommand, { type: 'DeclararCiot' }>> = {}): CiotCommand => ({
  type: 'DeclararCiot',
  ciot_id: ID,
  company_id: C,
  environment: 'homologacao',
  referencia_externa: 'PED-1',
  ancora: null,
  declaracao: dados,
  bloqueio: null,
  ...over,
});
const declarada = (
  d: DeclaracaoCiotDados = dados,
  ancora: { cte_id: string; chave: string; sequencia: number } | null = null,
): CiotEvent => ({
  type: 'ciot.declarada',
  data: { ciot_id: ID, company_id: C, ambiente: 'homologacao', referencia_externa: ancora ? null : 'PED-1', ancora, declaracao: d },
});
const registrada: CiotEvent = {
  type: 'ciot.registrada',
  data: {
    ciot_id: ID,
    company_id: C,
    ciot: '123456789012',
    codigo_verificacao: '1234',
    protocolo: '1',
    registrada_em: '2026-11-22T12:00:00.000Z',
  },
};
const pendente: CiotEvent = {
  type: 'ciot.pendente',
  data: { ciot_id: ID, company_id: C, protocolo: '9', motivo: 'sem veredito', tentativa: 1 },
};
const iniciada: CiotEvent = { type: 'ciot.viagem_iniciada', data: { ciot_id: ID, company_id: C, iniciada_em: '2026-11-22T13:00:00.000Z' } };
const cancelada: CiotEvent = {
  type: 'ciot.cancelada',
  data: { ciot_id: ID, company_id: C, justificativa: 'CARGA NAO EMBARCADA', protocolo: '2', cancelada_em: 'x' },
};
const encerrada: CiotEvent = {
  type: 'ciot.encerrada',
  data: { ciot_id: ID, company_id: C, peso_entregue_gramas: null, protocolo: '3', encerrada_em: 'x' },
};
const cancelar = (mdfe = false): CiotCommand => ({
  type: 'RegistrarCancelamentoCiot',
  mdfe_autorizado: mdfe,
  data: (cancelada as Extract<CiotEvent, { type: 'ciot.cancelada' }>).data,
});
const retificacao = (d: DeclaracaoCiotDados): CiotCommand => ({
  type: 'RegistrarRetificacaoCiot',
  data: { ciot_id: ID, company_id: C, alteracoes: { frete_centavos: 200000 }, declaracao: d, protocolo: '4', retificada_em: 'x' },
});

describe('CIOT declaration (DeclaracaoCiot, ruling 25)', () => {
  it('normalizes documents, plates, names, money in cents, weight in grams, IBGE municipalities', () => {
    expect(dados).toMatchObject({
      contratado: { documento: CNPJ, nome: null },
      carga: { tipo: 'lotacao', peso_gramas: 12000500, contratantes: [] },
      rota: {
        origem: { codigo_ibge: '3550308', municipio: 'São Paulo', uf: 'SP' },
        destino: { codigo_ibge: '3304557', uf: 'RJ' },
        trechos: [],
      },
      veiculos: [{ placa: 'ABC1D23', rntrc: null }],
      documentos_fiscais: [{ chave: null, numero: '123', destinatario: { documento: '52998224725' } }],
      valores: { frete_centavos: 150050, parcelas: [] },
      motorista: { cpf: '52998224725', nome: 'JOAO MOTORISTA' },
      vale_pedagio: null,
    });
  });

  it('400 naming every bad field: unknown IBGE pairs (trechos too), check digits, plates, fractioned without contracting parties', () => {
    let caught: unknown;
    try {
      normalizarDeclaracaoCiot(
        input({
          carga: { tipo: 'fracionada', peso_kg: 1 },
          rota: {
            origem: { municipio: 'Atlantida', uf: 'SP' },
            destino: { municipio: 'Campinas', uf: 'RJ' },
            trechos: [{ coleta: { municipio: 'Campinas', uf: 'SP' }, entrega: { municipio: 'Nowhere', uf: 'MG' } }],
          },
          veiculos: [{ placa: 'ABC1D23' }, { placa: 'abc-1d23' }, { placa: '1234567' }],
          documentos_fiscais: [
            {
              chave: NFE.slice(0, 43) + '9',
              remetente: { documento: '11222333000180', nome: 'X' },
              destinatario: { documento: '52998224725', nome: 'JOSE' },
            },
          ],
          motorista: { cpf: '52998224724', nome: 'JOAO' },
        }),
      );
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(Rejection);
    expect((caught as Rejection).code).toBe('validacao');
    expect((caught as Rejection).details!.fields!.map((f) => f.field)).toEqual([
      'carga.contratantes',
      'rota.origem',
      'rota.destino',
      'rota.trechos.0.entrega',
      'documentos_fiscais.0.chave',
      'documentos_fiscais.0.remetente.documento',
      'documentos_fiscais.0.remetente.nome',
      'veiculos.2.placa',
      'veiculos.1.placa',
      'motorista.cpf',
    ]);
  });

  it('blocks, in order: contracted party not the company, profile not covered, no provider', () => {
    expect(bloqueioDaDeclaracao(dados, '11.222.333/0001-81', true)).toBeNull();
    expect(bloqueioDaDeclaracao({ ...dados, contratado: { documento: '52998224725', nome: null } }, CNPJ, false)?.codigo).toBe(
      'contratado_divergente',
    );
    const tac = normalizarDeclaracaoCiot(input({ carga: { tipo: 'tac_agregado', peso_kg: 1 } }));
    expect(bloqueioDaDeclaracao(tac, CNPJ, false)).toMatchObject({
      codigo: 'perfil_nao_coberto',
      motivo: expect.stringMatching(/TAC-agregado/),
    });
    const parcelas = normalizarDeclaracaoCiot(
      input({ valores: { frete: 100, parcelas: [{ valor: 50 }, { valor: 50, vencimento: '2026-12-01' }] } }),
    );
    expect(bloqueioDaDeclaracao(parcelas, CNPJ, true)?.motivo).toMatch(/frete em parcelas/);
    const pracas = normalizarDeclaracaoCiot(input({ vale_pedagio: { valor: 10, pracas: [{ nome: 'PRACA 1' }] } }));
    expect(bloqueioDaDeclaracao(pracas, CNPJ, true)?.motivo).toMatch(/vale-pedágio com praças/);
    const semPracas = normalizarDeclaracaoCiot(input({ vale_pedagio: { valor: 10 } }));
    expect(bloqueioDaDeclaracao(semPracas, CNPJ, true)).toBeNull();
    expect(bloqueioDaDeclaracao(dados, CNPJ, false)?.codigo).toBe('provedor_indisponivel');
  });

  it('rectification: the groups given replace the registered ones; an empty one is 400', () => {
    const a = normalizarRetificacao({ valores: { frete: 2000 }, veiculos: [{ placa: 'xyz-9a87' }] });
    expect(a).toEqual({ frete_centavos: 200000, veiculos: [{ placa: 'XYZ9A87', rntrc: null }] });
    expect(aplicarRetificacao(dados, a)).toMatchObject({
      valores: { frete_centavos: 200000 },
      veiculos: [{ placa: 'XYZ9A87' }],
      motorista: dados.motorista,
    });
    expect(() => normalizarRetificacao({})).toThrow(Rejection);
  });
});

describe('ciot decider', () => {
  it('declares once: sent; blocked in the same append; a reused reference is 400 with the operation; an anchored slot is ciot_ja_emitido', () => {
    given().when(declarar()).then(declarada());
    given()
      .when(declarar({ bloqueio: { codigo: 'provedor_indisponivel', motivo: 'm' } }))
      .then(declarada(), { type: 'ciot.bloqueada', data: { ciot_id: ID, company_id: C, codigo: 'provedor_indisponivel', motivo: 'm' } });
    given(declarada()).when(declarar()).thenRejects('validacao', ['referencia_externa']);
    const ancora = { cte_id: 'cte-1', chave: NFE, sequencia: 1 };
    given(declarada(dados, ancora))
      .when(declarar({ ancora, referencia_externa: null }))
      .thenRejects('ciot_ja_emitido');
    given()
      .when(declarar({ declaracao: { ...dados, veiculos: [] } }))
      .thenRejects('validacao', ['veiculos']);
    given()
      .when(declarar({ declaracao: { ...dados, carga: { ...dados.carga, tipo: 'fracionada' } } }))
      .thenRejects('validacao', ['carga.contratantes']);
    expect(fold(ciotDecider, [declarada()])).toMatchObject({ status: 'sent', referencia_externa: 'PED-1' });
  });

  it("records the provider's verdict only while sent; pending counts the attempts", () => {
    given(declarada())
      .when({ type: 'RegistrarCiot', data: (registrada as Extract<CiotEvent, { type: 'ciot.registrada' }>).data })
      .then(registrada);
    given(declarada(), registrada)
      .when({ type: 'RegistrarCiot', data: (registrada as Extract<CiotEvent, { type: 'ciot.registrada' }>).data })
      .then();
    given(declarada(), registrada)
      .when({ type: 'RegistrarPendenciaCiot', data: (pendente as Extract<CiotEvent, { type: 'ciot.pendente' }>).data })
      .then();
    const recusa: CiotEvent = { type: 'ciot.recusada', data: { ciot_id: ID, company_id: C, codigo: 'SIM-001', motivo: 'x' } };
    given(declarada(), pendente)
      .when({ type: 'RegistrarRecusaCiot', data: (recusa as Extract<CiotEvent, { type: 'ciot.recusada' }>).data })
      .then(recusa);
    expect(fold(ciotDecider, [declarada(), pendente, pendente])).toMatchObject({ status: 'sent', tentativas: 2, protocolo: '9' });
    expect(fold(ciotDecider, [declarada(), pendente, registrada])).toMatchObject({
      status: 'registrado',
      ciot: '123456789012',
      codigo_verificacao: '1234',
    });
    given()
      .when({ type: 'RegistrarCiot', data: (registrada as Extract<CiotEvent, { type: 'ciot.registrada' }>).data })
      .thenRejects('ciot_nao_encontrado');
  });

  it('cancels only a registered CIOT before the trip (reported start or an authorized MDF-e), never after closing', () => {
    given(declarada(), registrada).when(cancelar()).then(cancelada);
    given(declarada()).when(cancelar()).thenRejects('ciot_nao_registrado');
    given(declarada(), registrada, iniciada).when(cancelar()).thenRejects('ciot_viagem_iniciada');
    given(declarada(), registrada).when(cancelar(true)).thenRejects('ciot_viagem_iniciada');
    given(declarada(), registrada, encerrada).when(cancelar()).thenRejects('ciot_encerrado');
    given(declarada(), registrada, cancelada).when(cancelar()).thenRejects('ciot_cancelado');
  });

  it('rectifies a fractioned load, never a full load (lotação); closes once', () => {
    given(declarada(), registrada).when(retificacao(dados)).thenRejects('ciot_retificacao_vedada');
    const r = retificacao(fracionada) as Extract<CiotCommand, { type: 'RegistrarRetificacaoCiot' }>;
    given(declarada(fracionada), registrada).when(r).then({ type: 'ciot.retificada', data: r.data });
    expect(fold(ciotDecider, [declarada(fracionada), registrada, { type: 'ciot.retificada', data: r.data }])).toMatchObject({
      status: 'retificado',
    });
    given(declarada(fracionada), registrada, encerrada).when(r).thenRejects('ciot_encerrado');
    const encerrar: CiotCommand = {
      type: 'RegistrarEncerramentoCiot',
      data: (encerrada as Extract<CiotEvent, { type: 'ciot.encerrada' }>).data,
    };
    given(declarada(), registrada, iniciada).when(encerrar).then(encerrada);
    given(declarada(), registrada, encerrada).when(encerrar).thenRejects('ciot_encerrado');
  });

  it('the trip start is recorded once, only for a CIOT in force', () => {
    const iniciar: CiotCommand = { type: 'IniciarViagemCiot', ciot_id: ID, company_id: C, iniciada_em: '2026-11-22T13:00:00.000Z' };
    given(declarada(), registrada).when(iniciar).then(iniciada);
    given(declarada(), registrada, iniciada).when(iniciar).then();
    given(declarada()).when(iniciar).thenRejects('ciot_nao_registrado');
    given(declarada(), registrada)
      .when({ ...iniciar, company_id: 'other' } as CiotCommand)
      .thenRejects('ciot_nao_encontrado');
  });
});

describe('CIOT of an own CT-e', () => {
  const parte = (documento: string, nome: string) => ({
    documento,
    tipo_documento: null,
    ie: null,
    nome,
    fantasia: null,
    telefone: null,
    email: null,
    endereco: null,
  });
  const cte = {
    chave: NFE,
    modal: '01',
    tipo_cte: 0,
    numero: 7,
    valor_prestacao_centavos: 150050,
    remetente: parte(CNPJ, 'REMETENTE'),
    destinatario: parte('52998224725', 'JOSE'),
    tomador: { codigo: 0, papel: 'remetente', parte: parte(CNPJ, 'REMETENTE') },
    inicio: { codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' },
    fim: { codigo_ibge: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ' },
    nfe_chaves: [],
    carga: {
      valor_centavos: 1,
      produto_predominante: 'X',
      outras_caracteristicas: null,
      quantidades: [{ unidade: '02', tipo_medida: 'PESO', quantidade: '1.5000' }],
    },
  } as unknown as CteLido;
  const base = { cte, empresa: { cnpj: CNPJ, razao_social: 'EMPRESA' }, rntrc: '12345678', motoristaRegistrado: null, emVigor: null };

  it('lists what is missing; builds the declaration from the CT-e once driver and vehicles are given', () => {
    const falta = avaliarCiotDoCte({ ...base, input: {} });
    expect(falta.declaracao).toBeNull();
    expect(falta.pendencias.map((p) => p.campo)).toEqual(['motorista', 'veiculos']);
    const ok = avaliarCiotDoCte({
      ...base,
      motoristaRegistrado: { cpf: '52998224725', nome: 'JOAO' },
      input: { motorista: { cpf: '52998224725' }, veiculos: [{ placa: 'ABC1D23' }] },
    });
    expect(ok.pendencias).toEqual([]);
    expect(ok.verificacoes.every((v) => v.ok)).toBe(true);
    expect(ok.declaracao).toMatchObject({
      contratado: { documento: CNPJ },
      carga: { tipo: 'lotacao', peso_gramas: 1_500_000 },
      motorista: { nome: 'JOAO' },
      documentos_fiscais: [{ chave: NFE, numero: '7' }],
      valores: { frete_centavos: 150050 },
      rota: { origem: { codigo_ibge: '3509502' } },
    });
    const vigor = avaliarCiotDoCte({
      ...base,
      emVigor: { id: 'x', status: 'registrado' },
      input: { motorista: { cpf: '52998224725', nome: 'JOAO' }, veiculos: [{ placa: 'ABC1D23' }] },
    });
    expect(vigor.pendencias.map((p) => p.campo)).toEqual(['ciot']);
    expect(() => avaliarCiotDoCte({ ...base, input: { motorista: { cpf: '11111111111' } } })).toThrow(Rejection);
    expect(avaliarCiotDoCte({ ...base, rntrc: null, input: {} }).pendencias.map((p) => p.campo)).toContain('configuracao.rntrc');
  });

  it('a CT-e of another modal or type cannot carry a CIOT', () => {
    expect(cteIncompativelComCiot(cte)).toBeNull();
    expect(cteIncompativelComCiot({ ...cte, modal: '02' })).toMatch(/modal/);
    expect(cteIncompativelComCiot({ ...cte, tipo_cte: 1 })).toMatch(/normal/);
  });
});

describe("the CT-e's CIOT slot", () => {
  it('sent, registered, rectified or closed operations hold it; cancelled, refused or blocked ones let it go', () => {
    for (const status of ['sent', 'registrado', 'retificado', 'encerrado'] as const)
      expect(ciotQueOcupaOCte({ ciot_id: 'x', status })).toEqual({ id: 'x', status });
    for (const status of ['cancelado', 'recusado', 'bloqueado'] as const) expect(ciotQueOcupaOCte({ ciot_id: 'x', status })).toBeNull();
    expect(ciotQueOcupaOCte(null)).toBeNull();
  });
  it('a new issue on a held slot is ciot_ja_emitido with the operation; a free slot passes', () => {
    expect(() => exigirVagaDoCteLivre(null)).not.toThrow();
    try {
      exigirVagaDoCteLivre({ id: 'x', status: 'encerrado' });
      throw new Error('no rejection');
    } catch (e) {
      expect(e).toBeInstanceOf(Rejection);
      expect((e as Rejection).code).toBe('ciot_ja_emitido');
      expect((e as Rejection).details).toEqual({ ciot: { id: 'x', status: 'encerrado' } });
    }
  });
});
