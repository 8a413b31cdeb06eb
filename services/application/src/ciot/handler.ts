import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type AlteracoesCiot, type CteCiotInput, type DeclaracaoCiot, type Environment } from '@frete/contracts';
import {
  type AvaliacaoCiotDoCte,
  avaliarCiotDoCte,
  ciotQueOcupaOCte,
  type CiotState,
  cteIncompativelComCiot,
  exigirVagaDoCteLivre,
  normalizarDeclaracaoCiot,
  normalizeCpf,
  Rejection,
} from '@frete/domain';
import { derivedEventId, type ReadYourWrites } from '@frete/platform';
import { eSentinelaCiot } from '@frete/adapters';
import { type CiotRow, ciotsDoCte, configuracaoOf, cteOf, type CteRow, mdfeAutorizadoDoCte, motoristaPorCpf } from '@frete/projections';
import { type ContextoEmpresa } from '../commands/execute';
import { type ServicoCiot } from './servico';

export interface CiotHandlerDeps {
  pool: Pool;
  readYourWrites: ReadYourWrites;
  environment: Environment;
  /** The provider flow: records each operation before calling the provider, and its answer after. */
  servicoCiot: ServicoCiot;
}

/** The authenticated company, as a CIOT names its contracted party. */
export interface EmpresaCiot {
  cnpj: string;
  razao_social: string;
}

/** An own authorized CT-e able to carry a CIOT. */
export type CteComCiot = CteRow & { cte: NonNullable<CteRow['cte']>; chave: string };

/** What a CIOT of the CT-e would be: the checks, what holds the CT-e's slot, and the latest operation. */
export interface AvaliacaoDoCte {
  cte: CteComCiot;
  avaliacao: AvaliacaoCiotDoCte;
  atual: CiotRow | null;
  emVigor: { id: string; status: string } | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * CIOT operations as the API asks for them: declared on their own or anchored on an own authorized CT-e. The read
 * models name the CT-e's operation and what the regulator's rules depend on (the RNTRC, the registered driver, an
 * MDF-e carrying the CT-e); the provider flow (`ServicoCiot`) does the rest.
 */
export const ciotHandler = (deps: CiotHandlerDeps) => {
  /** The own CT-e (read models caught up), authorized and able to carry a CIOT; 404 / 422 otherwise. */
  const cteComCiot = async (companyId: string, cteUuid: string): Promise<CteComCiot> => {
    await deps.readYourWrites.waitFor(companyId);
    const row = UUID.test(cteUuid) ? await cteOf(deps.pool, companyId, cteUuid.toLowerCase()) : null;
    if (!row) throw new Rejection('nao_encontrado', 'CT-e not found');
    if (row.situacao !== 'autorizado' || !row.cte || !row.chave) {
      throw new Rejection('cte_nao_autorizado', `only an own authorized CT-e carries a CIOT; this one is ${row.situacao}`, {
        situacao: row.situacao,
      });
    }
    const incompativel = cteIncompativelComCiot(row.cte);
    if (incompativel) throw new Rejection('ciot_cte_incompativel', incompativel);
    return row as CteComCiot;
  };

  /** The CT-e's latest CIOT operation; 404 `ciot_nao_encontrado` when it has none. */
  const ciotDoCte = async (companyId: string, cteUuid: string): Promise<CiotRow> => {
    await deps.readYourWrites.waitFor(companyId);
    const cte = UUID.test(cteUuid) ? await cteOf(deps.pool, companyId, cteUuid.toLowerCase()) : null;
    if (!cte) throw new Rejection('nao_encontrado', 'CT-e not found');
    const atual = (await ciotsDoCte(deps.pool, companyId, cte.cte_id))[0];
    if (!atual) throw new Rejection('ciot_nao_encontrado', 'this CT-e has no CIOT operation: POST .../ciot/emissao first');
    return atual;
  };

  const avaliarDoCte = async (companyId: string, empresa: EmpresaCiot, cteUuid: string, input: CteCiotInput): Promise<AvaliacaoDoCte> => {
    const cte = await cteComCiot(companyId, cteUuid);
    const config = await configuracaoOf(deps.pool, companyId);
    const registrado = input.motorista ? await motoristaPorCpf(deps.pool, companyId, normalizeCpf(input.motorista.cpf.trim())) : null;
    const operacoes = await ciotsDoCte(deps.pool, companyId, cte.cte_id);
    const atual = operacoes[0] ?? null;
    const emVigor = ciotQueOcupaOCte(atual);
    const avaliacao = avaliarCiotDoCte({
      cte: cte.cte,
      empresa: { cnpj: empresa.cnpj, razao_social: empresa.razao_social },
      rntrc: config.rntrc ?? cte.cte.rntrc ?? null,
      input,
      motoristaRegistrado: registrado ? { cpf: registrado.cpf, nome: registrado.nome } : null,
      emVigor,
    });
    return { cte, avaliacao, atual, emVigor };
  };

  return {
    /** `POST /fiscal/ciot`: a declaration in the company's own name. Returns the operation's state after. */
    declarar: async (ctx: ContextoEmpresa, cnpjEmpresa: string, body: DeclaracaoCiot): Promise<CiotState> => {
      const declaracao = normalizarDeclaracaoCiot(body);
      const referencia = body.referencia_externa ?? null;
      // The id is derived from the reference, so that the event store itself keeps it unique per company.
      const livre = referencia === null || (deps.environment === 'homologacao' && eSentinelaCiot(referencia));
      const ciotId = livre ? randomUUID() : derivedEventId(ctx.companyId, `ciot-referencia:${referencia}`);
      return deps.servicoCiot.declarar(
        {
          ciot_id: ciotId,
          company_id: ctx.companyId,
          cnpj_empresa: cnpjEmpresa,
          referencia_externa: referencia,
          ancora: null,
          declaracao,
        },
        ctx,
      );
    },

    avaliarDoCte,
    ciotDoCte,

    /** Issues the CIOT of an own authorized CT-e, when its slot is free and nothing is missing. */
    emitirDoCte: async (ctx: ContextoEmpresa, empresa: EmpresaCiot, cteUuid: string, input: CteCiotInput): Promise<CiotState> => {
      const { cte, avaliacao, atual, emVigor } = await avaliarDoCte(ctx.companyId, empresa, cteUuid, input);
      exigirVagaDoCteLivre(emVigor);
      if (!avaliacao.declaracao) {
        throw new Rejection(
          'ciot_com_pendencias',
          `the CIOT cannot be issued yet: ${avaliacao.pendencias.map((x) => x.campo).join(', ')}`,
          { pendencias: avaliacao.pendencias },
        );
      }
      const sequencia = (atual?.cte_sequencia ?? 0) + 1;
      // Derived from the CT-e and the slot's sequence: two concurrent issues meet on the same stream, and only one wins.
      const ciotId = derivedEventId(ctx.companyId, `ciot-cte:${cte.cte_id}:${sequencia}`);
      return deps.servicoCiot.declarar(
        {
          ciot_id: ciotId,
          company_id: ctx.companyId,
          cnpj_empresa: empresa.cnpj,
          referencia_externa: null,
          ancora: { cte_id: cte.cte_id, chave: cte.chave, sequencia },
          declaracao: avaliacao.declaracao,
        },
        ctx,
      );
    },

    /** The acts on the CT-e's latest operation return its id, for the reread. */
    iniciarViagemDoCte: async (ctx: ContextoEmpresa, cteUuid: string): Promise<string> => {
      const atual = await ciotDoCte(ctx.companyId, cteUuid);
      await deps.servicoCiot.iniciarViagem(ctx.companyId, atual.ciot_id, ctx);
      return atual.ciot_id;
    },
    cancelarDoCte: async (ctx: ContextoEmpresa, cteUuid: string, justificativa: string): Promise<string> => {
      const atual = await ciotDoCte(ctx.companyId, cteUuid);
      // An authorized MDF-e carrying the CT-e means the trip happened: the regulator no longer cancels.
      const mdfe = await mdfeAutorizadoDoCte(deps.pool, ctx.companyId, atual.cte_id!);
      await deps.servicoCiot.cancelar(ctx.companyId, atual.ciot_id, justificativa, mdfe !== null, ctx);
      return atual.ciot_id;
    },
    retificarDoCte: async (ctx: ContextoEmpresa, cteUuid: string, alteracoes: AlteracoesCiot): Promise<string> => {
      const atual = await ciotDoCte(ctx.companyId, cteUuid);
      await deps.servicoCiot.retificar(ctx.companyId, atual.ciot_id, alteracoes, ctx);
      return atual.ciot_id;
    },
    encerrarDoCte: async (ctx: ContextoEmpresa, cteUuid: string, pesoEntregueGramas: number | null): Promise<string> => {
      const atual = await ciotDoCte(ctx.companyId, cteUuid);
      await deps.servicoCiot.encerrar(ctx.companyId, atual.ciot_id, pesoEntregueGramas, ctx);
      return atual.ciot_id;
    },
  };
};
export type CiotHandler = ReturnType<typeof ciotHandler>;
