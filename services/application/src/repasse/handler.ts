import { randomUUID } from 'node:crypto';
import { type ErrorCode, ErrorCodes } from '@frete/contracts';
import { type RepasseCommand, repasseDecider, repasseStream, Rejection } from '@frete/domain';
import { type RepasseDocumentoRow } from '@frete/projections';
import { derivedEventId } from '@frete/platform';
import { type CommandContext, type CommandDeps, type ContextoEmpresa } from '../commands/execute';
import { handles } from '../commands/handles';
import { documentoRepasseNasLeituras, linhaDoDocumento } from './documento';
import { type LeiturasRepasse } from './leituras';

export interface RepasseHandlerDeps extends Required<CommandDeps> {
  leituras: LeiturasRepasse;
}

type SemAlvo<C> = C extends unknown ? Omit<C, 'company_id' | 'grupo' | 'cte_id'> : never;
/** An act on one document, named without its group: the handler finds the group from the read model. */
export type AcaoRepasse = SemAlvo<Extract<RepasseCommand, { cte_id: string }>>;
/**
 * The acts the operator asks for. A payment order's id is drawn here, or derived from the request's
 * `Idempotency-Key` (`chave`), so that a retry of a request whose answer was lost lands on the same order.
 */
export type PedidoRepasse =
  | { type: 'Bipar' | 'Concluir' | 'PrestarContas' }
  | { type: 'Liberar'; posicao: number }
  | { type: 'Pagar'; posicao: number; chave?: string };

/**
 * What an act touched: the document's counter-CT-e, for a payment the order, and the document as its group decided it
 * (answered from what was recorded: the read models may lag behind the command without changing the answer).
 */
export interface AtoRepasse {
  cte_id: string;
  ordem_id: string | null;
  documento: RepasseDocumentoRow;
}

/** What became of one CT-e of a manifest: acted on, left alone (`motivo`), or refused (`error`, the single act's code). */
export type ResultadoRepasseDoCte = { cte_id: string; chave: string } & (
  | { status: 'ok'; ordem_id?: string }
  | { status: 'ignorado'; motivo: { code: string; message: string } }
  | { status: 'erro'; error: { code: ErrorCode; message: string } }
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ignorado = (cte: { cte_id: string; chave: string }, code: string, message: string): ResultadoRepasseDoCte => ({
  cte_id: cte.cte_id,
  chave: cte.chave,
  status: 'ignorado',
  motivo: { code, message },
});

/**
 * The document to act on, or why this CT-e of the manifest is left alone: the operations touch only installments
 * that already exist, and only those of the MDF-e's drivers (spec section 4).
 */
function alvoOuMotivo(
  cte: { cte_id: string; chave: string },
  doc: RepasseDocumentoRow | undefined,
  motoristas: string[],
  posicao: number,
): { doc: RepasseDocumentoRow } | { ignorado: ResultadoRepasseDoCte } {
  if (!doc || doc.financeiro === 'failed') return { ignorado: ignorado(cte, 'sem_repasse', 'not a counter-CT-e with a registered payout') };
  if (!motoristas.includes(doc.motorista_cpf)) {
    return { ignorado: ignorado(cte, 'motorista_fora_do_mdfe', `the payout's driver ${doc.motorista_cpf} is not a driver of this MDF-e`) };
  }
  if (doc.cancelado) return { ignorado: ignorado(cte, 'documento_cancelado', 'the counter-CT-e was cancelled') };
  if (doc.parcelas.length === 0) return { ignorado: ignorado(cte, 'parcelas_nao_geradas', 'not scanned yet: no installment exists') };
  if (!doc.parcelas.some((p) => p.posicao === posicao)) {
    return { ignorado: ignorado(cte, 'parcela_nao_encontrada', `the document has no installment at position ${posicao}`) };
  }
  return { doc };
}

/**
 * The driver's payout of a counter-CT-e, acted on by the operator: the document is found in the read model (by
 * counter-CT-e id, key or financial document), which names the driver group whose stream holds it.
 */
export const repasseHandler = (deps: RepasseHandlerDeps) => {
  const run = handles(deps, repasseDecider, (c) =>
    'grupo' in c ? repasseStream(c.company_id, c.grupo) : repasseStream(c.dados.company_id, c.dados.grupo),
  );

  /**
   * Runs an act on the document's group. A document whose financial step failed has no payout to act on: 422 with
   * the failure's code (the registry's `motorista_nao_encontrado`).
   */
  const agirNo = async (ctx: CommandContext, row: RepasseDocumentoRow, pedido: PedidoRepasse): Promise<AtoRepasse> => {
    if (row.financeiro === 'failed') {
      const code = row.erro_financeiro?.code ?? '';
      throw new Rejection(
        code in ErrorCodes ? (code as ErrorCode) : 'regra_de_negocio',
        `the financial step of counter-CT-e ${row.cte_id} failed (${row.erro_financeiro?.message ?? 'unknown reason'}): it has no installments`,
      );
    }
    const ordemId =
      pedido.type === 'Pagar'
        ? pedido.chave
          ? derivedEventId(row.company_id, `pagar:${pedido.chave}:${row.cte_id}:${pedido.posicao}`)
          : randomUUID()
        : null;
    const acao: AcaoRepasse = pedido.type === 'Pagar' ? { type: 'Pagar', posicao: pedido.posicao, ordem_id: ordemId! } : pedido;
    const { state } = await run(ctx, { ...acao, company_id: row.company_id, grupo: row.grupo, cte_id: row.cte_id } as RepasseCommand);
    const doc = state.documentos[row.cte_id];
    if (!doc) throw new Error(`group ${row.grupo} lost counter-CT-e ${row.cte_id}`);
    return { cte_id: row.cte_id, ordem_id: ordemId, documento: linhaDoDocumento(row.company_id, row.grupo, doc) };
  };

  return {
    /** One act on the company's document named by `documento`; 404 `nao_encontrado` for another company's. */
    agir: async (ctx: ContextoEmpresa, documento: string, pedido: PedidoRepasse): Promise<AtoRepasse> =>
      agirNo(ctx, await documentoRepasseNasLeituras(deps, ctx.companyId, documento), pedido).then(async (ato) => {
        // The reads after the answer see the act as usual; a wait that times out changes nothing in the answer itself.
        await deps.readYourWrites.waitFor(ctx.companyId);
        return ato;
      }),

    /**
     * The same act on the installment at `posicao` of every CT-e a manifest carries, one result per CT-e in the
     * manifest's order; a rejected act is that CT-e's `erro`, not the whole request's.
     */
    agirPorMdfe: async (
      ctx: ContextoEmpresa,
      mdfeId: string,
      pedido: Extract<PedidoRepasse, { posicao: number }>,
    ): Promise<ResultadoRepasseDoCte[]> => {
      await deps.readYourWrites.waitFor(ctx.companyId);
      const mdfe = UUID.test(mdfeId) ? await deps.leituras.mdfe(ctx.companyId, mdfeId.toLowerCase()) : null;
      if (!mdfe) throw new Rejection('nao_encontrado', `MDF-e ${mdfeId} not found`);
      const docs = await deps.leituras.documentosDosCtes(
        ctx.companyId,
        mdfe.ctes.map((c) => c.cte_id),
      );
      const resultados: ResultadoRepasseDoCte[] = [];
      for (const cte of mdfe.ctes) {
        const alvo = alvoOuMotivo(cte, docs.get(cte.cte_id), mdfe.motoristas, pedido.posicao);
        if ('ignorado' in alvo) {
          resultados.push(alvo.ignorado);
          continue;
        }
        try {
          const { ordem_id } = await agirNo(ctx, alvo.doc, pedido);
          resultados.push({ cte_id: cte.cte_id, chave: cte.chave, status: 'ok', ...(ordem_id ? { ordem_id } : {}) });
        } catch (err) {
          if (!(err instanceof Rejection)) throw err;
          resultados.push({ cte_id: cte.cte_id, chave: cte.chave, status: 'erro', error: { code: err.code, message: err.message } });
        }
      }
      await deps.readYourWrites.waitFor(ctx.companyId);
      return resultados;
    },
  };
};
export type RepasseHandler = ReturnType<typeof repasseHandler>;
