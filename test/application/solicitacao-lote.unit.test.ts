import { type EventData } from '@frete/contracts';
import { solicitacaoLoteStream } from '@frete/domain';
import { derivedEventId } from '@frete/platform';
import { solicitacaoLoteHandler } from '../../services/application/src/solicitacao-lote/handler';
import { EMPRESA, especificacaoDeHandler, naStream } from '../support/especificacao';

/**
 * The contractor's record of the batches it requests on a subcontractor's account (issue 26), at the handler level:
 * the answer to the request, the emission processor and the operator's transcription (test/ops/lote-transcrever) all
 * record through it, and whichever comes second appends nothing, since each event's id derives from the batch.
 */
const LOTE = '5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
const stream = solicitacaoLoteStream(LOTE);
const aceita: EventData<'solicitacao_lote.aceita'> = {
  batch_id: LOTE,
  company_id: EMPRESA,
  subcontratada: { cnpj: '11222333000181', nome: 'SUBCONTRATADA LTDA' },
  modo: '1a1',
  total_linhas: 2,
};
const concluida: EventData<'solicitacao_lote.concluida'> = {
  batch_id: LOTE,
  company_id: EMPRESA,
  status: 'done',
  total_linhas: 2,
  emitidas: 1,
  duplicadas: 0,
  falhas: 1,
};
const registrada = naStream(stream, { type: 'solicitacao_lote.aceita', data: aceita });
const semLeitura = () => Promise.reject(new Error('the request is recorded: its acceptance is not read again'));

describe('solicitacao-lote handler', () => {
  const spec = especificacaoDeHandler(({ store }) => solicitacaoLoteHandler({ store }));

  it("records the request in the batch's own stream, under an id derived from the batch; the same record again appends nothing", async () => {
    const registrar = spec.given().when((h, ctx) => h.registrar(ctx, aceita));
    const { gravados } = await registrar.run();
    expect(gravados.map((e) => [e.streamId, e.type, e.id, e.data])).toEqual([
      [stream, 'solicitacao_lote.aceita', derivedEventId(LOTE, 'solicitacao_lote.aceita'), aceita],
    ]);
    await registrar.again().thenNothing();
    // The operator's transcription recorded it first: the request's answer adds nothing.
    await spec
      .given(registrada)
      .when((h, ctx) => h.registrar(ctx, aceita))
      .thenNothing();
  });

  it('records the end of a recorded request once; the acceptance is not read again', async () => {
    const concluir = spec.given(registrada).when((h, ctx) => h.concluir(ctx, concluida, semLeitura));
    await concluir.then({ type: 'solicitacao_lote.concluida', data: concluida });
    await concluir.again().thenNothing();
  });

  it('a request whose answer failed after the batch was created is recorded first, from its acceptance, then its end', () =>
    spec
      .given()
      .when((h, ctx) => h.concluir(ctx, concluida, () => Promise.resolve(aceita)))
      .then({ type: 'solicitacao_lote.aceita', data: aceita }, { type: 'solicitacao_lote.concluida', data: concluida }));

  it("422 lote_nao_encontrado for the end of another company's request", () =>
    spec
      .given(registrada)
      .when((h, ctx) => h.concluir(ctx, { ...concluida, company_id: 'outra' }, semLeitura))
      .thenRejects('lote_nao_encontrado'));
});
