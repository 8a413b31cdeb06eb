import { configuracaoStream, loteDecider, type LoteEvent, reagirAoLote } from '@frete/domain';
import { type EventHandler } from '@frete/platform';
import { configuracaoHandler } from '../../../services/application/src/configuracao/handler';
import { EMPRESA, entrega, entregaGravada, especificacaoDeFluxo, especificacaoDeHandler, especificacaoDeProcessador, naStream } from '.';

/** The kit itself: each of its checks fails when what it checks is not so (a specification that cannot fail is none). */
const atualizada = (changes: object) => ({ type: 'configuracao.atualizada' as const, data: { company_id: EMPRESA, changes } });
const spec = especificacaoDeHandler(({ store }) => configuracaoHandler({ store }));
const serie = spec.given().when((h, ctx) => h.atualizar(ctx, { serie_cte: 1 }));

describe('the specification kit', () => {
  it('handler: then fails on other events, on another stream, on nothing appended; thenNothing fails on an append', async () => {
    await expect(serie.then(atualizada({ serie_cte: 2 }))).rejects.toThrow();
    await expect(serie.then({ stream: 'outra', ...atualizada({ serie_cte: 1 }) })).rejects.toThrow();
    await expect(serie.then()).rejects.toThrow();
    await expect(serie.thenNothing()).rejects.toThrow();
    await expect(serie.again().then(atualizada({ serie_cte: 1 }))).rejects.toThrow();
  });

  it('handler: thenRejects fails when the call succeeds or is refused with another code; then fails on a refusal', async () => {
    await expect(serie.thenRejects('validacao')).rejects.toThrow();
    const reservada = spec.given().when((h, ctx) => h.atualizar(ctx, { serie_cte: 900 }));
    await expect(reservada.thenRejects('validacao')).rejects.toThrow();
    await expect(reservada.then()).rejects.toThrow(/serie|series/i);
  });

  it('handler: the history and earlier calls are in the store before the call', async () => {
    const historia = naStream(configuracaoStream(EMPRESA), atualizada({ serie_cte: 1 }));
    await spec
      .given(historia)
      .when((h, ctx) => h.atualizar(ctx, { serie_cte: 1 }))
      .thenNothing();
    await spec
      .given()
      .andCalled((h, ctx) => h.atualizar(ctx, { serie_cte: 1 }))
      .when((h, ctx) => h.atualizar(ctx, { serie_cte: 1 }))
      .thenNothing();
  });

  it("processor: an event of a type the map does not handle is not delivered; a handler's failure is the delivery's", async () => {
    let entregues = 0;
    const falha: EventHandler = () => Promise.reject(new Error('handler failed'));
    const conta: EventHandler = async () => void entregues++;
    const processador = especificacaoDeProcessador(
      () =>
        new Map([
          ['configuracao.atualizada', conta],
          ['company.registered', falha],
        ]),
    );
    await processador
      .given()
      .when(entrega('s', atualizada({})))
      .thenNothing();
    expect(entregues).toBe(1);
    await processador
      .given()
      .when(entrega('s', { type: 'credential.revoked', data: { credential_id: 'x', company_id: EMPRESA } }))
      .thenNothing();
    expect(entregues).toBe(1);
    const registrada = {
      type: 'company.registered' as const,
      data: {
        company_id: EMPRESA,
        cnpj: '11222333000181',
        razao_social: 'X',
        carrier: true,
        fiscal_ready: false,
        fiscal_production: false,
      },
    };
    await expect(processador.given().when(entrega('s', registrada)).thenNothing()).rejects.toThrow('handler failed');
    await processador
      .given()
      .when(entrega('s', registrada))
      .thenFails(/handler failed/);
    await expect(processador.given().when(entregaGravada('s', 'company.registered')).thenNothing()).rejects.toThrow(/holds no/);
  });

  it('workflow: then fails on other commands', () => {
    const criado: LoteEvent = {
      type: 'lote.criado',
      data: {
        batch_id: 'b',
        company_id: 'c',
        solicitante_company_id: null,
        ambiente: 'homologacao',
        modo: '1a1',
        parcelas: null,
        linhas: [],
      },
    };
    const fluxo = especificacaoDeFluxo(loteDecider, reagirAoLote);
    expect(() =>
      fluxo
        .given(criado)
        .when({ tipo: 'criado', batch_id: 'b' })
        .then({ tipo: 'EmitirContraCtes', company_id: 'c', ctes: ['x'] }),
    ).toThrow();
    fluxo.given(criado).when({ tipo: 'criado', batch_id: 'b' }).then();
  });
});
