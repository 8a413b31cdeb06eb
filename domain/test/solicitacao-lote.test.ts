import { type EventData } from '@frete/contracts';
import { type SolicitacaoLoteCommand, solicitacaoLoteDecider, type SolicitacaoLoteEvent, solicitacaoLoteStream } from '../src';
import { scenario } from './given-when-then';

describe("solicitacao_lote: the contractor's record of a batch it requested", () => {
  const { given } = scenario(solicitacaoLoteDecider);
  const aceitaData: EventData<'solicitacao_lote.aceita'> = {
    batch_id: 'b-1',
    company_id: 'con',
    subcontratada: { cnpj: '45723174000110', nome: 'SUBCONTRATADA LTDA' },
    modo: '1a1',
    total_linhas: 2,
  };
  const concluidaData: EventData<'solicitacao_lote.concluida'> = {
    batch_id: 'b-1',
    company_id: 'con',
    status: 'done',
    total_linhas: 2,
    emitidas: 1,
    duplicadas: 0,
    falhas: 1,
  };
  const registrar: SolicitacaoLoteCommand = { type: 'RegistrarSolicitacaoLote', ...aceitaData };
  const concluir: SolicitacaoLoteCommand = { type: 'ConcluirSolicitacaoLote', ...concluidaData };
  const aceita: SolicitacaoLoteEvent = { type: 'solicitacao_lote.aceita', data: aceitaData };
  const concluida: SolicitacaoLoteEvent = { type: 'solicitacao_lote.concluida', data: concluidaData };

  it('names its stream by the batch id the contractor was answered', () =>
    expect(solicitacaoLoteStream('b-1')).toBe('solicitacao-lote-b-1'));
  it('records the request once: the first record stands', () => {
    given().when(registrar).then(aceita);
    given(aceita)
      .when({ ...registrar, total_linhas: 9 })
      .then();
  });
  it("records the batch's end once", () => {
    given(aceita).when(concluir).then(concluida);
    given(aceita, concluida)
      .when({ ...concluir, status: 'failed' } as SolicitacaoLoteCommand)
      .then();
  });
  it("refuses an end without the request's record, or for another company", () => {
    given().when(concluir).thenRejects('lote_nao_encontrado');
    given(aceita)
      .when({ ...concluir, company_id: 'outra' } as SolicitacaoLoteCommand)
      .thenRejects('lote_nao_encontrado');
  });
});
