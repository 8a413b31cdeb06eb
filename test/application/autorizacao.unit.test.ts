import { type DomainEvent, START } from '@frete/contracts';
import { autorizacaoStream, cnpjCheckDigits, type ContratanteEncontrada, formatCnpj } from '@frete/domain';
import { type EventStore } from '@frete/platform';
import { autorizacaoHandler } from '../../services/application/src/autorizacao/handler';
import { type LeiturasAutorizacao } from '../../services/application/src/autorizacao/leituras';
import { AGORA, EMPRESA, especificacaoDeHandler, naStream } from '../support/especificacao';
import { SemEspera } from '../support/especificacao/leitura-apos-escrita';

/**
 * Emission grants between carriers (`autorizacaoHandler`): the caller is the subcontractor, the contractor is found by
 * its CNPJ through the read port. The facts of test/api/autorizacoes at the handler level.
 */
const cnpj = (base12: string) => base12 + cnpjCheckDigits(base12);
const SUB = { company_id: EMPRESA, cnpj: cnpj('112223330001'), nome: 'SUBCONTRATADA TRANSPORTES LTDA' };
const CON = { company_id: 'c0c0c0c0-1111-4222-8333-444455556666', cnpj: cnpj('445556660001'), nome: 'CONTRATANTE LOGISTICA SA' };
const ALFA = { company_id: 'a1a1a1a1-1111-4222-8333-444455556666', cnpj: cnpj('12ABC34501DE'), nome: 'CONTRATANTE ALFA LTDA' };
const EMBARCADOR = { company_id: 'e0e0e0e0-1111-4222-8333-444455556666', cnpj: cnpj('778889990001'), nome: 'EMBARCADOR SA' };
const TERCEIRA = 'd0d0d0d0-1111-4222-8333-444455556666';
const GRANT = '0a0b0c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
const wrongDigits = (c: string) => c.slice(0, 13) + String((Number(c[13]) + 1) % 10);
const alfaErrado = ALFA.cnpj.slice(0, 12) + (ALFA.cnpj.endsWith('00') ? '11' : '00');

const registrada = (c: { company_id: string; cnpj: string; nome: string }, carrier = true) =>
  naStream(`company-${c.company_id}`, {
    type: 'company.registered',
    data: { company_id: c.company_id, cnpj: c.cnpj, razao_social: c.nome, carrier, fiscal_ready: true, fiscal_production: false },
  });
const empresas = [registrada(SUB), registrada(CON), registrada(ALFA), registrada(EMBARCADOR, false)];

/**
 * The companies read model as the log makes it: each registered company, its flags as last changed; a CNPJ no
 * company has is none.
 */
function empresasDoLog(store: EventStore): LeiturasAutorizacao {
  return {
    empresaPorCnpj: async (procurado) => {
      const porId = new Map<string, ContratanteEncontrada>();
      for (const e of await store.readAll(START, Number.MAX_SAFE_INTEGER)) {
        const ev = { type: e.type, data: e.data } as DomainEvent;
        if (ev.type === 'company.registered') {
          const d = ev.data;
          porId.set(d.company_id, { company_id: d.company_id, cnpj: d.cnpj, nome: d.razao_social, carrier: d.carrier });
        } else if (ev.type === 'company.flags_changed') {
          const atual = porId.get(ev.data.company_id);
          if (atual && ev.data.carrier !== undefined) porId.set(atual.company_id, { ...atual, carrier: ev.data.carrier });
        }
      }
      return [...porId.values()].find((c) => c.cnpj === procurado) ?? null;
    },
  };
}

/** Each run's read-your-writes, to check the watermarks the grant recorded. */
let escritas: SemEspera;
const montar = ({ store }: { store: EventStore }) => {
  escritas = new SemEspera();
  return autorizacaoHandler({ store, readYourWrites: escritas, leituras: empresasDoLog(store) });
};
const spec = especificacaoDeHandler(montar);
const daTerceira = especificacaoDeHandler(montar, { companyId: TERCEIRA });
const daContratante = especificacaoDeHandler(montar, { companyId: CON.company_id });

const streamCon = autorizacaoStream(EMPRESA, CON.cnpj);
const concedida = (id: string, c = CON) => ({
  type: 'autorizacao.concedida' as const,
  data: {
    autorizacao_id: id,
    subcontratada_id: EMPRESA,
    subcontratada_cnpj: SUB.cnpj,
    subcontratada_nome: SUB.nome,
    contratante_id: c.company_id,
    contratante_cnpj: c.cnpj,
    contratante_nome: c.nome,
  },
});
const revogada = (id: string) => ({
  type: 'autorizacao.revogada' as const,
  data: { autorizacao_id: id, subcontratada_id: EMPRESA, contratante_id: CON.company_id, contratante_cnpj: CON.cnpj },
});
const linha = (id: string, status: 'ativa' | 'revogada', c = CON) => ({
  autorizacao_id: id,
  subcontratada_id: EMPRESA,
  subcontratada_cnpj: SUB.cnpj,
  subcontratada_nome: SUB.nome,
  contratante_id: c.company_id,
  contratante_cnpj: c.cnpj,
  contratante_nome: c.nome,
  status,
  concedida_em: AGORA,
  revogada_em: status === 'revogada' ? AGORA : null,
});

describe('granting (autorizacaoHandler.conceder)', () => {
  it("creates the grant to the contractor the CNPJ (masked) names, recording the contractor's watermark too", async () => {
    const conceder = spec.given(...empresas).when((h, ctx) => h.conceder(ctx, SUB, formatCnpj(CON.cnpj)));
    const { resultado, gravados } = await conceder.run();
    expect(gravados.map((e) => ({ stream: e.streamId, type: e.type, data: e.data }))).toEqual([
      { stream: streamCon, ...concedida(resultado.autorizacao_id) },
    ]);
    expect(resultado).toEqual({ autorizacao_id: expect.any(String), nova: true, autorizacao: linha(resultado.autorizacao_id, 'ativa') });
    // The contractor's next read waits for the grant as the subcontractor's does.
    expect(escritas.gravadas.map((g) => g.companyId)).toEqual([EMPRESA, CON.company_id]);
  });

  it('an active grant again (unmasked): the same grant, nothing appended, the caller still waits for it', async () => {
    const repetida = await spec
      .given(...empresas, naStream(streamCon, concedida(GRANT)))
      .when((h, ctx) => h.conceder(ctx, SUB, CON.cnpj))
      .thenNothing();
    expect(repetida).toEqual({ autorizacao_id: GRANT, nova: false, autorizacao: linha(GRANT, 'ativa') });
    expect(new Set(escritas.gravadas.map((g) => g.companyId))).toEqual(new Set([EMPRESA]));
    const vezes = spec.given(...empresas).when((h, ctx) => h.conceder(ctx, SUB, CON.cnpj));
    const primeira = await vezes.run();
    expect(await vezes.again().thenNothing()).toMatchObject({ nova: false, autorizacao: { status: 'ativa' } });
    expect(primeira.resultado.nova).toBe(true);
  });

  it('accepts an alphanumeric CNPJ, masked and in lower case', async () => {
    const { resultado } = await spec
      .given(...empresas)
      .when((h, ctx) => h.conceder(ctx, SUB, formatCnpj(ALFA.cnpj).toLowerCase()))
      .run();
    expect(resultado.autorizacao).toMatchObject({ contratante_cnpj: ALFA.cnpj, contratante_nome: ALFA.nome, status: 'ativa' });
  });

  it("422 contratante_invalida for the caller's own CNPJ, wrong check digits or no CNPJ at all, naming the field", async () => {
    for (const c of [formatCnpj(SUB.cnpj), wrongDigits(CON.cnpj), alfaErrado, 'abc'])
      await spec
        .given(...empresas)
        .when((h, ctx) => h.conceder(ctx, SUB, c))
        .thenRejects('contratante_invalida', ['contratante.cnpj']);
  });

  it('404 contratante_nao_encontrada for a CNPJ no company has and for a company that is not a carrier', async () => {
    for (const c of [cnpj('998887770001'), EMBARCADOR.cnpj])
      await spec
        .given(...empresas)
        .when((h, ctx) => h.conceder(ctx, SUB, c))
        .thenRejects('contratante_nao_encontrada');
    // A shipper that became a carrier can be granted to.
    await spec
      .given(
        ...empresas,
        naStream(`company-${EMBARCADOR.company_id}`, {
          type: 'company.flags_changed',
          data: { company_id: EMBARCADOR.company_id, carrier: true },
        }),
      )
      .when((h, ctx) => h.conceder(ctx, SUB, EMBARCADOR.cnpj))
      .run();
  });

  it('granting again after a revoke creates a new grant', async () => {
    const { resultado, gravados } = await spec
      .given(...empresas, naStream(streamCon, concedida(GRANT), revogada(GRANT)))
      .when((h, ctx) => h.conceder(ctx, SUB, CON.cnpj))
      .run();
    expect(resultado.autorizacao_id).not.toBe(GRANT);
    expect(gravados.map((e) => e.data)).toEqual([concedida(resultado.autorizacao_id).data]);
  });
});

describe('revoking (autorizacaoHandler.revogar)', () => {
  it("revokes the active grant (masked CNPJ), answering it as recorded, and records the contractor's watermark", async () => {
    const revogar = spec.given(...empresas, naStream(streamCon, concedida(GRANT))).when((h, ctx) => h.revogar(ctx, formatCnpj(CON.cnpj)));
    expect(await revogar.then({ stream: streamCon, ...revogada(GRANT) })).toEqual(linha(GRANT, 'revogada'));
    expect(escritas.gravadas.map((g) => g.companyId)).toEqual([EMPRESA, CON.company_id]);
    // Revoking again: nothing active to revoke.
    await revogar.again().thenRejects('autorizacao_nao_encontrada');
  });

  it('404 autorizacao_nao_encontrada with no grant, or for a CNPJ that is none (lower-case alphanumeric revokes)', async () => {
    const ativa = [...empresas, naStream(streamCon, concedida(GRANT))];
    for (const c of [ALFA.cnpj, wrongDigits(CON.cnpj), 'nao-e-cnpj'])
      await spec
        .given(...ativa)
        .when((h, ctx) => h.revogar(ctx, c))
        .thenRejects('autorizacao_nao_encontrada');
    const alfa = autorizacaoStream(EMPRESA, ALFA.cnpj);
    await spec
      .given(...empresas, naStream(alfa, concedida(GRANT, ALFA)))
      .when((h, ctx) => h.revogar(ctx, ALFA.cnpj.toLowerCase()))
      .then({
        stream: alfa,
        type: 'autorizacao.revogada',
        data: { ...revogada(GRANT).data, contratante_id: ALFA.company_id, contratante_cnpj: ALFA.cnpj },
      });
  });

  it("keeps tenants apart: a third company cannot revoke another's grant, nor the contractor what it received", async () => {
    const ativa = [...empresas, naStream(streamCon, concedida(GRANT))];
    await daTerceira
      .given(...ativa)
      .when((h, ctx) => h.revogar(ctx, CON.cnpj))
      .thenRejects('autorizacao_nao_encontrada');
    await daContratante
      .given(...ativa)
      .when((h, ctx) => h.revogar(ctx, SUB.cnpj))
      .thenRejects('autorizacao_nao_encontrada');
    // The subcontractor's grant is still there to revoke.
    await spec
      .given(...ativa)
      .when((h, ctx) => h.revogar(ctx, CON.cnpj))
      .then(revogada(GRANT));
  });
});
