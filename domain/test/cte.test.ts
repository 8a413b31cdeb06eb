import { type CteLido } from '@frete/contracts';
import { cteDecider, type CteEvent, type ReceberCteEmitido } from '../src';
import { scenario } from './given-when-then';
import { CHAVE_CTE_LIDO, cteLido } from './cte-lido';

const chave = CHAVE_CTE_LIDO;
const protocolo = {
  numero: '135260000000001',
  recebido_em: '2026-11-20T10:00:05-03:00',
  status: 100,
  motivo: 'Autorizado o uso do CT-e',
  chave,
};
const cte: CteLido = cteLido({ protocolo });
const receber: ReceberCteEmitido = {
  type: 'ReceberCteEmitido',
  cte_id: 'id1',
  company_id: 'c1',
  company_cnpj: '11.222.333/0001-81',
  environment: 'homologacao',
  sha256: 's1',
  tamanho_bytes: 9,
  cte,
};
const recebido: CteEvent = {
  type: 'cte.emitido_recebido',
  data: { cte_id: 'id1', company_id: 'c1', chave, sha256: 's1', tamanho_bytes: 9, situacao: 'autorizado', cte },
};
const repassar = {
  type: 'RepassarCte' as const,
  cte_id: 'id1',
  company_id: 'c1',
  subcontratada_id: 's1',
  subcontratada_cnpj: '99888777000100',
  observacao: null,
};

describe('cte decider: own CT-e delivered by the carrier', () => {
  const { given } = scenario(cteDecider);
  it('an authorized cteProc of the carrier enters as autorizado', () => given().when(receber).then(recebido));
  it('a bare CTe enters as sem_protocolo', () =>
    given()
      .when({ ...receber, cte: { ...cte, protocolo: null } })
      .then({
        type: 'cte.emitido_recebido',
        data: { ...recebido.data, situacao: 'sem_protocolo', cte: { ...cte, protocolo: null } } as never,
      }));
  it('a resubmission is recorded and reprocesses nothing, whatever its content', () => {
    given(recebido)
      .when(receber)
      .then({ type: 'cte.emitido_reenviado', data: { cte_id: 'id1', company_id: 'c1', chave, sha256: 's1', conteudo_diferente: false } });
    given(recebido)
      .when({ ...receber, sha256: 's2' })
      .then({ type: 'cte.emitido_reenviado', data: { cte_id: 'id1', company_id: 'c1', chave, sha256: 's2', conteudo_diferente: true } });
  });
  it('refuses another emitter, another environment, a protocol of another key or one that does not authorize', () => {
    given()
      .when({ ...receber, company_cnpj: '99888777000100' })
      .thenRejects('cte_de_outro_emitente');
    given()
      .when({ ...receber, environment: 'producao' })
      .thenRejects('ambiente_divergente');
    given()
      .when({ ...receber, cte: { ...cte, protocolo: { ...protocolo, chave: chave.replace('35', '41') } } })
      .thenRejects('chave_invalida');
    given()
      .when({ ...receber, cte: { ...cte, protocolo: { ...protocolo, status: 110 } } })
      .thenRejects('cte_nao_autorizado');
    given()
      .when({ ...receber, cte: { ...cte, protocolo: { ...protocolo, status: 150 } } })
      .then({
        type: 'cte.emitido_recebido',
        data: { ...recebido.data, cte: { ...cte, protocolo: { ...protocolo, status: 150 } } } as never,
      });
  });
});

describe('cte decider: hand-off', () => {
  const { given } = scenario(cteDecider);
  it('records the hand-off of an authorized CT-e', () =>
    given(recebido)
      .when(repassar)
      .then({
        type: 'cte.repassado',
        data: { cte_id: 'id1', company_id: 'c1', chave, subcontratada_id: 's1', subcontratada_cnpj: '99888777000100', observacao: null },
      }));
  it("refuses a CT-e without authorization, and another company's", () => {
    given({ type: 'cte.emitido_recebido', data: { ...recebido.data, situacao: 'sem_protocolo' } as never })
      .when(repassar)
      .thenRejects('cte_nao_autorizado');
    given(recebido)
      .when({ ...repassar, company_id: 'c2' })
      .thenRejects('nao_encontrado');
    given().when(repassar).thenRejects('nao_encontrado');
  });
});

describe('cte decider: drafts', () => {
  const { given } = scenario(cteDecider);
  const local = (municipio: string, uf: string) => ({ municipio, uf });
  const criar = {
    type: 'CriarRascunho' as const,
    cte_id: 'd1',
    company_id: 'c1',
    environment: 'homologacao' as const,
    dados: { inicio: local('SAO PAULO', 'SP'), valores: { total: 10 } },
  };
  const criado: CteEvent = {
    type: 'cte.rascunho_criado',
    data: {
      cte_id: 'd1',
      company_id: 'c1',
      ambiente: 'homologacao',
      dados: { inicio: { municipio: 'São Paulo', uf: 'SP', codigo_ibge: '3550308' }, valores: { total: 10 } },
    },
  };
  it('creates a draft with its data normalized against the IBGE table', () => given().when(criar).then(criado));
  it('creating the same draft again (an idempotent retry) appends nothing', () => given(criado).when(criar).then());
  it('refuses what the schema cannot see, naming each field', () =>
    given()
      .when({ ...criar, dados: { fim: local('Atlantida', 'SP'), valores: { total: 1, a_receber: 2 } } })
      .thenRejects('validacao', ['fim.municipio', 'valores.a_receber']));
  it("replaces a draft's data; the same data again is no change", () => {
    given(criado)
      .when({ type: 'AlterarRascunho', cte_id: 'd1', company_id: 'c1', dados: { valores: { total: 11 } } })
      .then({ type: 'cte.rascunho_alterado', data: { cte_id: 'd1', company_id: 'c1', dados: { valores: { total: 11 } } } });
    given(criado)
      .when({
        type: 'AlterarRascunho',
        cte_id: 'd1',
        company_id: 'c1',
        dados: { valores: { total: 10 }, inicio: { uf: 'SP', municipio: 'sao paulo' } },
      })
      .then();
  });
  it("a CT-e that left the draft state is immutable; another company's is not found", () => {
    given(recebido).when({ type: 'AlterarRascunho', cte_id: 'id1', company_id: 'c1', dados: {} }).thenRejects('cte_nao_editavel');
    given(criado).when({ type: 'AlterarRascunho', cte_id: 'd1', company_id: 'c2', dados: {} }).thenRejects('nao_encontrado');
  });
});

describe('cte decider: issue', () => {
  const { given } = scenario(cteDecider);
  const criado: CteEvent = { type: 'cte.rascunho_criado', data: { cte_id: 'd1', company_id: 'c1', ambiente: 'homologacao', dados: {} } };
  const solicitada: CteEvent = { type: 'cte.emissao_solicitada', data: { cte_id: 'd1', company_id: 'c1', serie: 1 } };
  const assinado: CteEvent = {
    type: 'cte.xml_assinado',
    data: { cte_id: 'd1', company_id: 'c1', chave, serie: 1, numero: 1, data_emissao: '2026-11-22T10:00:00-03:00', sha256: 'x1' },
  };
  const protocoloAut = {
    numero: '135260000000001',
    recebido_em: '2026-11-22T10:00:01-03:00',
    cstat: 100,
    motivo: 'Autorizado o uso do CT-e',
  };
  const solicitar = { type: 'SolicitarEmissao' as const, cte_id: 'd1', company_id: 'c1', serie: 1 };

  it('a draft goes to issue once; asking again while in issue issues nothing', () => {
    given(criado).when(solicitar).then(solicitada);
    given(criado, solicitada).when(solicitar).then();
    given(criado, solicitada, assinado).when(solicitar).then();
  });
  it('the signed XML is recorded once: a retry sends the same document, never a new key', () =>
    given(criado, solicitada, assinado)
      .when({ type: 'RegistrarXmlAssinado', data: { ...assinado.data, chave: 'outra', sha256: 'x2' } as never })
      .then());
  it('a verdict is taken only while in issue', () => {
    const autorizado = { cte_id: 'd1', company_id: 'c1', chave, protocolo: protocoloAut, sha256: 'p1', cte };
    given(criado, solicitada, assinado)
      .when({ type: 'RegistrarAutorizacao', data: autorizado })
      .then({ type: 'cte.autorizado', data: autorizado });
    given(criado, solicitada, assinado, { type: 'cte.autorizado', data: autorizado })
      .when({ type: 'RegistrarRejeicao', data: { cte_id: 'd1', company_id: 'c1', cstat: 225, motivo: 'x' } })
      .then();
  });
  it('a rejected CT-e can be corrected and issued again; a denied one is final', () => {
    const rejeitado: CteEvent = {
      type: 'cte.rejeitado',
      data: { cte_id: 'd1', company_id: 'c1', cstat: 225, motivo: 'Falha no Schema XML' },
    };
    given(criado, solicitada, assinado, rejeitado)
      .when({ type: 'AlterarRascunho', cte_id: 'd1', company_id: 'c1', dados: { observacoes: 'corrigido' } })
      .then({ type: 'cte.rascunho_alterado', data: { cte_id: 'd1', company_id: 'c1', dados: { observacoes: 'corrigido' } } });
    given(criado, solicitada, assinado, rejeitado).when(solicitar).then(solicitada);
    const denegado: CteEvent = {
      type: 'cte.denegado',
      data: { cte_id: 'd1', company_id: 'c1', chave, protocolo: { ...protocoloAut, cstat: 301, motivo: 'Uso Denegado' } },
    };
    given(criado, solicitada, assinado, denegado).when(solicitar).then();
    given(criado, solicitada, assinado, denegado)
      .when({ type: 'AlterarRascunho', cte_id: 'd1', company_id: 'c1', dados: {} })
      .thenRejects('cte_nao_editavel');
  });
});
