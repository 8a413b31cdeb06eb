import { type Pool } from 'pg';
import { type CteLido, type Environment } from '@frete/contracts';
import {
  CteReadError,
  Rejection,
  cteDecider,
  cteStream,
  caixaCteDecider,
  caixaCteStream,
  isValidCnpj,
  type RegistrarCancelamentoCte,
  normalizeCnpj,
} from '@frete/domain';
import { companyOf, type CaixaCteRow, caixaCteDoLog, statusDaCaixa } from '@frete/projections';
import { type DocumentStore } from '@frete/platform';
import { decodeXml, readCteDocument } from '@frete/documents';
import { type CommandDeps, type ContextoEmpresa } from '../commands/execute';
import { handles } from '../commands/handles';
import { type DesacordoCte, type PedidoDesacordo, type ResultadoDesacordo } from './desacordo';

export interface CaixaCteHandlerDeps extends Required<CommandDeps> {
  pool: Pool;
  documents: DocumentStore;
  environment: Environment;
  /** The taker's events about a received CT-e (610110/610111), sent through the authority port. */
  desacordoCte: DesacordoCte;
}

type Contexto = ContextoEmpresa;

/** A CT-e XML as uploaded: the bytes are what is archived and hashed. */
export interface CteRecebido {
  bytes: Buffer;
  cte: CteLido;
}

/** A CT-e the national distribution brought, archived under `sha256` as distributed (never reserialised). */
export interface CteDistribuido {
  sha256: string;
  tamanho_bytes: number;
  /** The document's NSU in the company's distribution (15 digits). */
  nsu: string;
  cte: CteLido;
}

/** The contractor's own CT-e being handed off, as its read model shows it. */
export interface CteARepassar {
  cte_id: string;
  situacao: string;
  xml_sha256: string | null;
  chave: string | null;
}

export interface PedidoRepasseCte {
  cnpj: string;
  observacao: string | null;
}

export interface Repasse {
  /** The key handed off (an authorized CT-e always has one). */
  chave: string;
  /** True on the first receipt of the key in the subcontractor's inbox. */
  novo: boolean;
  subcontratada: { company_id: string; cnpj: string; razao_social: string };
  /** The receipt in the subcontractor's inbox, as recorded. */
  recebimento: CaixaCteRow;
}

/** The archived XML is the authority's or the carrier's bytes: a decoding failure is the document's fault, not ours. */
async function lerCte(content: Buffer): Promise<CteLido> {
  let text: string;
  try {
    text = decodeXml(content);
  } catch (err) {
    if (err instanceof CteReadError) throw new Rejection(err.code, err.message);
    throw err;
  }
  return readCteDocument(text);
}

/** The inbox of CT-e issued by other companies, and the hand-off of an own CT-e into a subcontractor's inbox. */
export const caixaCteHandler = (deps: CaixaCteHandlerDeps) => {
  const receberNaCaixa = handles(deps, caixaCteDecider, (c) =>
    c.type === 'ReceberCteSubcontratacao'
      ? caixaCteStream(c.company_id, c.cte.chave)
      : c.type === 'RegistrarCancelamentoCte'
        ? caixaCteStream(c.company_id, c.chave)
        : caixaCteStream(c.data.company_id, c.data.chave),
  );
  const runCte = handles(deps, cteDecider, (c) => cteStream('cte_id' in c ? c.cte_id : c.data.cte_id));
  /**
   * The inbox row as the key's stream recorded it, in the read model's shape: what a receipt answers, never waiting for
   * the projection. A first receipt is `recebido` (as the projector inserts it); a later one keeps the standing the
   * counter-CT-e gave the key, which only that read model knows.
   */
  const recebimento = async (companyId: string, chave: string, novo: boolean): Promise<CaixaCteRow> => {
    const status = novo ? 'recebido' : await statusDaCaixa(deps.pool, companyId, chave);
    const row = caixaCteDoLog(await deps.store.readStream(caixaCteStream(companyId, chave)), status);
    if (!row) throw new Error(`inbox stream of ${chave} has no receipt after its write`);
    return row;
  };
  return {
    /**
     * The taker registers a prestação do serviço em desacordo (610110) about a CT-e of its inbox, or cancels it (610111);
     * a request while the same type is pending reconciles it.
     */
    desacordo: (ctx: Contexto, chave: string, pedido: PedidoDesacordo): Promise<ResultadoDesacordo> =>
      deps.desacordoCte.solicitar(ctx.companyId, chave, pedido, ctx),

    /** Archives the bytes as received and records the receipt in the caller's inbox; the receipt as recorded. */
    receber: async (ctx: Contexto, companyCnpj: string, upload: CteRecebido): Promise<{ novo: boolean; recebimento: CaixaCteRow }> => {
      const sha256 = await deps.documents.put(upload.bytes, 'application/xml');
      const { events } = await receberNaCaixa(ctx, {
        type: 'ReceberCteSubcontratacao',
        company_id: ctx.companyId,
        company_cnpj: companyCnpj,
        environment: deps.environment,
        sha256,
        tamanho_bytes: upload.bytes.length,
        canal: 'api',
        repassado_por: null,
        cte: upload.cte,
      });
      const novo = events[0]?.type === 'cte_subcontratacao.recebido';
      return { novo, recebimento: await recebimento(ctx.companyId, upload.cte.chave, novo) };
    },

    /**
     * A CT-e the national distribution brought (`procCTe`), its bytes already archived by the caller under `sha256`:
     * recorded by the same decider as an upload, with canal `distribuicao` and its NSU. `eventId` names the event
     * (derived from the consultation and the NSU), so a repeat of the same document records nothing new.
     */
    receberDistribuido: async (
      ctx: Contexto,
      companyCnpj: string,
      distribuido: CteDistribuido,
      eventId: string,
    ): Promise<{ novo: boolean; recebimento: CaixaCteRow }> => {
      const { events } = await receberNaCaixa(
        ctx,
        {
          type: 'ReceberCteSubcontratacao',
          company_id: ctx.companyId,
          company_cnpj: companyCnpj,
          environment: deps.environment,
          sha256: distribuido.sha256,
          tamanho_bytes: distribuido.tamanho_bytes,
          canal: 'distribuicao',
          repassado_por: null,
          nsu: distribuido.nsu,
          cte: distribuido.cte,
        },
        { eventId: () => eventId },
      );
      const novo = events[0]?.type === 'cte_subcontratacao.recebido';
      return { novo, recebimento: await recebimento(ctx.companyId, distribuido.cte.chave, novo) };
    },

    /**
     * The contractor's cancellation (110111) of a CT-e of the caller's inbox, its procEventoCTe already archived:
     * `registrado` (recorded now, or by an earlier call with the same `eventId`), `ja_cancelado` (an earlier
     * cancellation stands), or `fora_da_caixa` (the key is not in the inbox: the decider refuses it, the caller keeps it).
     */
    registrarCancelamento: async (
      ctx: Contexto,
      cancelamento: Omit<RegistrarCancelamentoCte, 'type' | 'company_id'>,
      eventId: string,
    ): Promise<'registrado' | 'ja_cancelado' | 'fora_da_caixa'> => {
      try {
        const { events } = await receberNaCaixa(
          ctx,
          { type: 'RegistrarCancelamentoCte', company_id: ctx.companyId, ...cancelamento },
          { eventId: () => eventId },
        );
        return events.length > 0 ? 'registrado' : 'ja_cancelado';
      } catch (err) {
        if (err instanceof Rejection && err.code === 'cte_nao_recebido') return 'fora_da_caixa';
        throw err;
      }
    },

    /** The contractor (the caller) hands its authorized CT-e, byte for byte, to a carrier's inbox. No financial action. */
    repassar: async (
      ctx: Contexto,
      contratante: { cnpj: string; nome: string },
      own: CteARepassar,
      pedido: PedidoRepasseCte,
    ): Promise<Repasse> => {
      if (own.situacao !== 'autorizado' || !own.xml_sha256 || !own.chave) {
        throw new Rejection('cte_nao_autorizado', `only an authorized CT-e can be handed off; this one is ${own.situacao}`);
      }
      const cnpj = normalizeCnpj(pedido.cnpj);
      if (!isValidCnpj(cnpj)) {
        throw new Rejection('validacao', 'subcontratada.cnpj: not a valid CNPJ', {
          fields: [{ field: 'subcontratada.cnpj', message: 'not a valid CNPJ (check digits)' }],
        });
      }
      if (cnpj === normalizeCnpj(contratante.cnpj))
        throw new Rejection('subcontratada_igual_contratante', 'the subcontractor cannot be the contractor itself');
      const sub = await companyOf(deps.pool, cnpj, cnpj);
      if (!sub) throw new Rejection('subcontratada_nao_encontrada', `no company with CNPJ ${cnpj} uses the service`);
      if (!sub.carrier) throw new Rejection('subcontratada_nao_transportadora', `the company with CNPJ ${cnpj} is not a carrier`);

      const doc = await deps.documents.get(own.xml_sha256);
      if (!doc) throw new Rejection('xml_indisponivel', 'the archived XML of this CT-e cannot be read now; retry later');
      const cte = await lerCte(doc.content);
      // The receipt belongs to the subcontractor: its watermark moves, so its next read sees the CT-e.
      const { events } = await receberNaCaixa(
        { ...ctx, companyId: sub.company_id },
        {
          type: 'ReceberCteSubcontratacao',
          company_id: sub.company_id,
          company_cnpj: sub.cnpj,
          environment: deps.environment,
          sha256: own.xml_sha256,
          tamanho_bytes: doc.content.length,
          canal: 'repasse',
          repassado_por: {
            company_id: ctx.companyId,
            cnpj: contratante.cnpj,
            nome: contratante.nome,
            cte_id: own.cte_id,
            observacao: pedido.observacao,
          },
          cte,
        },
      );
      await runCte(ctx, {
        type: 'RepassarCte',
        cte_id: own.cte_id,
        company_id: ctx.companyId,
        subcontratada_id: sub.company_id,
        subcontratada_cnpj: sub.cnpj,
        observacao: pedido.observacao,
      });
      const novo = events[0]?.type === 'cte_subcontratacao.recebido';
      return {
        chave: own.chave,
        novo,
        subcontratada: { company_id: sub.company_id, cnpj: sub.cnpj, razao_social: sub.razao_social },
        recebimento: await recebimento(sub.company_id, cte.chave, novo),
      };
    },
  };
};
export type CaixaCteHandler = ReturnType<typeof caixaCteHandler>;
