import { type CteLido } from '@frete/contracts';
import {
  accessKeyCheckDigit,
  bloqueioContraCte,
  CteReadError,
  caixaCteDecider,
  lerProcEventoCte,
  type CaixaCteEvent,
  papelNoCte,
  planejarContraCte,
  type ReceberCteSubcontratacao,
  recusaContraCte,
} from '../src';
import { scenario } from './given-when-then';
import { cteLido, parteLida } from './cte-lido';
import { PEDIDO_CONTRA_CTE } from './lote-planejado';

const ENDERECO = {
  logradouro: 'RUA A',
  numero: '1',
  complemento: null,
  bairro: 'CENTRO',
  codigo_municipio: '3550308',
  municipio: 'SAO PAULO',
  uf: 'SP',
  cep: '01001000',
  pais: null,
};
const parte = (documento: string | null) => ({ ...parteLida(documento), endereco: ENDERECO });
const cte: CteLido = cteLido({
  cfop: '6353',
  emitente: parte('11222333000181'),
  remetente: parte('22333444000181'),
  recebedor: parte('33444555000181'),
  destinatario: parte('44555666000181'),
  tomador: { codigo: 3, papel: 'destinatario', parte: parte('44555666000181') },
});
const receber: ReceberCteSubcontratacao = {
  type: 'ReceberCteSubcontratacao',
  company_id: 'sub',
  company_cnpj: '99888777000100',
  environment: 'homologacao',
  sha256: 'v1',
  tamanho_bytes: 10,
  canal: 'api',
  repassado_por: null,
  cte,
};
const recebimento = { company_id: 'sub', chave: cte.chave, sha256: 'v1', tamanho_bytes: 10, canal: 'api' as const, repassado_por: null };
const recebido: CaixaCteEvent = {
  type: 'cte_subcontratacao.recebido',
  data: {
    ...recebimento,
    papel_transportadora: 'terceiro',
    permite_contra_cte: true,
    bloqueio_contra_cte: null,
    recusa_contra_cte: null,
    cte,
  },
};

describe('cte_subcontratacao decider (the inbox)', () => {
  const { given } = scenario(caixaCteDecider);
  it('records the first receipt with the role and whether a counter-CT-e is possible', () => given().when(receber).then(recebido));
  it('the same bytes again are a resubmission only', () =>
    given(recebido).when(receber).then({ type: 'cte_subcontratacao.reenviado', data: recebimento }));
  it('different bytes replace the archived version, naming the previous one', () =>
    given(recebido)
      .when({ ...receber, sha256: 'v2', tamanho_bytes: 11 })
      .then({
        type: 'cte_subcontratacao.substituido',
        data: {
          ...recebimento,
          sha256: 'v2',
          tamanho_bytes: 11,
          papel_transportadora: 'terceiro',
          permite_contra_cte: true,
          bloqueio_contra_cte: null,
          recusa_contra_cte: null,
          cte,
          sha256_anterior: 'v1',
        },
      }));
  it('a later version compares with the latest one', () =>
    given(recebido, { type: 'cte_subcontratacao.substituido', data: { ...recebido.data, sha256: 'v2', sha256_anterior: 'v1' } })
      .when({ ...receber, sha256: 'v2' })
      .then({ type: 'cte_subcontratacao.reenviado', data: { ...recebimento, sha256: 'v2' } }));
});

describe('what a receipt says of a counter-CT-e (issue 28): the refusal a batch row of the key would end with', () => {
  const { given } = scenario(caixaCteDecider);
  const leitura = (c: CteLido, company_cnpj = '99888777000100') => {
    const [e] = caixaCteDecider.decide({ ...receber, company_cnpj, cte: c }, caixaCteDecider.initialState, {
      now: new Date(),
    } as never);
    return e!.data as { permite_contra_cte: boolean; bloqueio_contra_cte: string | null; recusa_contra_cte: unknown };
  };
  const emMossoro = (p: ReturnType<typeof parte>) => ({
    ...p,
    endereco: { ...p.endereco, codigo_municipio: '2408003', municipio: 'MossorÃ³', uf: 'RN' },
  });

  it('a municipality is its IBGE code: a mis-encoded name with a valid code admits a counter-CT-e', () => {
    const mossoro = { codigo_ibge: '2408003', municipio: 'MossorÃ³', uf: 'RN' };
    expect(leitura({ ...cte, fim: mossoro, destinatario: emMossoro(parte('44555666000181')) })).toMatchObject({
      permite_contra_cte: true,
      bloqueio_contra_cte: null,
      recusa_contra_cte: null,
    });
  });

  it('a code that names no municipality of its UF, or a party a CT-e cannot carry: refused at receipt with the field', () => {
    expect(leitura({ ...cte, fim: { codigo_ibge: '2408003', municipio: 'MOSSORO', uf: 'SP' } })).toEqual({
      ...recebido.data,
      permite_contra_cte: false,
      bloqueio_contra_cte: 'dados_invalidos',
      recusa_contra_cte: {
        code: 'cte_original_invalido',
        message: "the contractor's CT-e gives data a CT-e cannot carry: ide/cMunFim: 2408003 is no IBGE municipality of SP",
      },
      cte: { ...cte, fim: { codigo_ibge: '2408003', municipio: 'MOSSORO', uf: 'SP' } },
    });
    const recusa = leitura({ ...cte, remetente: parte('22333444000100') }).recusa_contra_cte;
    expect(recusa).toEqual({
      code: 'cte_original_invalido',
      message: "the contractor's CT-e gives data a CT-e cannot carry: remetente.documento: not a valid CNPJ or CPF (check digits)",
    });
  });

  it('an own CT-e, a multimodal-linked one: the blocking reason with the row code and message', () => {
    expect(leitura(cte, '11222333000181')).toMatchObject({
      permite_contra_cte: false,
      bloqueio_contra_cte: 'cte_proprio',
      recusa_contra_cte: { code: 'cte_proprio', message: expect.stringContaining('was issued by your own company') },
    });
    expect(leitura({ ...cte, tipo_servico: 4 })).toMatchObject({
      permite_contra_cte: false,
      bloqueio_contra_cte: 'vinculado_multimodal',
      recusa_contra_cte: { code: 'origem_incompativel_com_tipo', message: expect.stringContaining('multimodal') },
    });
  });

  it('the receipt and the plan decide by one function: what the inbox refuses, planejarContraCte refuses with the same code', () => {
    const pedido = PEDIDO_CONTRA_CTE;
    const regras = [{ uf_origem: 'SP', uf_destino: 'SP', tp_serv: null, cfop: null }];
    for (const c of [{ ...cte, remetente: parte('22333444000100') }, { ...cte, tipo_servico: 4 as const }, cte]) {
      const recusa = recusaContraCte(c, '99888777000100', 'homologacao');
      const plano = planejarContraCte(c, { cnpj: '99888777000100', uf: 'SP', environment: 'homologacao' }, pedido, regras);
      expect(plano.ok ? null : { code: plano.code, message: plano.message }).toEqual(
        recusa && { code: recusa.code, message: recusa.message },
      );
    }
    given().when(receber).then(recebido);
  });
});

describe('role of the company in a CT-e', () => {
  it('by where its CNPJ appears, issuer first, then taker', () => {
    expect(papelNoCte(cte, '11.222.333/0001-81')).toBe('emitente');
    expect(papelNoCte(cte, '44555666000181')).toBe('tomador');
    expect(papelNoCte(cte, '33444555000181')).toBe('recebedor');
    expect(papelNoCte(cte, '22333444000181')).toBe('remetente');
    expect(papelNoCte({ ...cte, tomador: { codigo: 0, papel: 'remetente', parte: cte.remetente } }, '44555666000181')).toBe('destinatario');
    expect(papelNoCte(cte, '99888777000100')).toBe('terceiro');
  });

  it('no counter-CT-e against an own CT-e, a multimodal-linked one, a CT-e OS, a complementary one, or a sandbox document in production', () => {
    expect(bloqueioContraCte(cte, 'emitente', 'homologacao')).toBe('cte_proprio');
    expect(bloqueioContraCte({ ...cte, tipo_servico: 4 }, 'terceiro', 'homologacao')).toBe('vinculado_multimodal');
    expect(bloqueioContraCte({ ...cte, modelo: '67' }, 'terceiro', 'homologacao')).toBe('nao_e_cte_de_carga');
    expect(bloqueioContraCte({ ...cte, tipo_cte: 1 }, 'terceiro', 'homologacao')).toBe('cte_nao_normal');
    expect(bloqueioContraCte(cte, 'terceiro', 'producao')).toBe('ambiente_homologacao');
    expect(bloqueioContraCte({ ...cte, ambiente: 'producao' }, 'terceiro', 'homologacao')).toBeNull();
    expect(bloqueioContraCte({ ...cte, tipo_servico: 1, tipo_cte: 3 }, 'tomador', 'homologacao')).toBeNull();
  });
});

describe('issue 30: a distributed receipt and the contractor cancellation of an inbox CT-e', () => {
  const { given } = scenario(caixaCteDecider);
  const nsu = '000000000000042';
  const cancelar = {
    type: 'RegistrarCancelamentoCte' as const,
    company_id: 'sub',
    chave: cte.chave,
    protocolo: '135260000000123',
    cancelado_em: '2026-11-21T09:00:00-03:00',
    sha256: 'proc-evento',
    nsu,
  };
  const recusa = {
    code: 'cte_contratante_cancelado',
    message: `the contractor cancelled CT-e ${cte.chave} (protocol 135260000000123 of 2026-11-21T09:00:00-03:00): it admits no counter-CT-e`,
  };
  const { type: _t, ...dadosCancelamento } = cancelar;
  const canceladoEvento: CaixaCteEvent = {
    type: 'cte_subcontratacao.cancelado',
    data: { ...dadosCancelamento, recusa_contra_cte: recusa },
  };

  it('a receipt by distribution is the same decision, with its channel and NSU', () =>
    given()
      .when({ ...receber, canal: 'distribuicao', nsu })
      .then({ ...recebido, data: { ...recebido.data, canal: 'distribuicao', nsu } } as CaixaCteEvent));
  it('an upload after a distributed receipt is a resubmission', () =>
    given({ ...recebido, data: { ...recebido.data, canal: 'distribuicao', nsu } } as CaixaCteEvent)
      .when(receber)
      .then({ type: 'cte_subcontratacao.reenviado', data: recebimento }));
  it('the cancellation of a key in the inbox is recorded with the refusal of every counter-CT-e', () =>
    given(recebido).when(cancelar).then(canceladoEvento));
  it('a second cancellation records nothing', () => given(recebido, canceladoEvento).when(cancelar).then());
  it('a key not in the inbox is not cancelled there', () => given().when(cancelar).thenRejects('cte_nao_recebido'));
  it('bytes of a cancelled CT-e received later keep the refusal', () =>
    given(recebido, canceladoEvento)
      .when({ ...receber, sha256: 'v2' })
      .then({
        type: 'cte_subcontratacao.substituido',
        data: {
          ...recebimento,
          sha256: 'v2',
          papel_transportadora: 'terceiro',
          permite_contra_cte: false,
          bloqueio_contra_cte: 'cte_cancelado',
          recusa_contra_cte: recusa,
          cte,
          sha256_anterior: 'v1',
        },
      }));
  it('a counter-CT-e of a cancelled contractor CT-e is refused by its plan, whatever the request', () => {
    const pedido = PEDIDO_CONTRA_CTE;
    const regras = [{ uf_origem: 'SP', uf_destino: 'SP', tp_serv: null, cfop: null }];
    const emitente = { cnpj: '99888777000100', uf: 'SP', environment: 'homologacao' as const };
    expect(planejarContraCte(cte, emitente, pedido, regras).ok).toBe(true);
    expect(
      planejarContraCte(cte, emitente, pedido, regras, { protocolo: '135260000000123', cancelado_em: '2026-11-21T09:00:00-03:00' }),
    ).toEqual({
      ok: false,
      ...recusa,
    });
  });
});

describe('lerProcEventoCte: a CT-e event as the national distribution hands it', () => {
  const chaveDe = (first43: string) => first43 + accessKeyCheckDigit(first43);
  const chave = chaveDe('3526111122233300018157001000000001100000001');
  const outra = chaveDe('3526111122233300018157001000000002100000002');
  const proc = (cStat: string, tpEvento = '110111', chRet = chave) =>
    '<?xml version="1.0" encoding="UTF-8"?><procEventoCTe xmlns="http://www.portalfiscal.inf.br/cte" versao="4.00">' +
    `<eventoCTe versao="4.00"><infEvento Id="ID${tpEvento}${chave}001"><cOrgao>35</cOrgao><tpAmb>2</tpAmb><CNPJ>11222333000181</CNPJ>` +
    `<chCTe>${chave}</chCTe><dhEvento>2026-11-21T08:59:00-03:00</dhEvento><tpEvento>${tpEvento}</tpEvento><nSeqEvento>1</nSeqEvento>` +
    '<detEvento versaoEvento="4.00"><evCancCTe><descEvento>Cancelamento</descEvento><nProt>135260000000001</nProt>' +
    '<xJust>ERRO NA EMISSAO DO CONHECIMENTO</xJust></evCancCTe></detEvento></infEvento></eventoCTe>' +
    `<retEventoCTe versao="4.00"><infEvento Id="ID135260000000123"><tpAmb>2</tpAmb><verAplic>SP-CTe</verAplic><cOrgao>35</cOrgao>` +
    `<cStat>${cStat}</cStat><xMotivo>Evento registrado e vinculado a CT-e</xMotivo><chCTe>${chRet}</chCTe><tpEvento>${tpEvento}</tpEvento>` +
    '<xEvento>Cancelamento</xEvento><nSeqEvento>1</nSeqEvento><dhRegEvento>2026-11-21T09:00:00-03:00</dhRegEvento>' +
    '<nProt>135260000000123</nProt></infEvento></retEventoCTe></procEventoCTe>';

  it('reads the key, the type and the registration', () =>
    expect(lerProcEventoCte(proc('135'))).toEqual({
      chave,
      tp_evento: '110111',
      n_seq_evento: 1,
      registro: { protocolo: '135260000000123', registrado_em: '2026-11-21T09:00:00-03:00', cstat: 135 },
    }));
  it('an event the authority did not register has no registration', () => expect(lerProcEventoCte(proc('218')).registro).toBeNull());
  it('refuses a return of another key, a bare event and what is no CT-e event', () => {
    expect(() => lerProcEventoCte(proc('135', '110111', outra))).toThrow(CteReadError);
    expect(() => lerProcEventoCte('<eventoCTe versao="4.00"><infEvento/></eventoCTe>')).toThrow(/procEventoCTe/);
    expect(() => lerProcEventoCte('<resNFe/>')).toThrow(CteReadError);
    expect(() => lerProcEventoCte('<!DOCTYPE x [<!ENTITY a "b">]><procEventoCTe/>')).toThrow(
      expect.objectContaining({ code: 'xml_hostil' }),
    );
  });
});
