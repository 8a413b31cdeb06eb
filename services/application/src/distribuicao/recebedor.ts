import { type DocumentoDistribuidoRegistrado, type Environment, type ServicoDistribuicao } from '@frete/contracts';
import { type DocumentoDistribuido } from '@frete/adapters';
import { CteReadError, NfeReadError, Rejection, TP_EVENTO_CANCELAMENTO_CTE, lerProcEventoCte, normalizeCnpj } from '@frete/domain';
import { CONTENT_TYPES, decodeXml, readCteDocument, readNfeDocument } from '@frete/documents';
import { type DocumentStore, derivedEventId } from '@frete/platform';
import { type ContextoEmpresa } from '../commands/execute';
import { type CaixaCteHandler } from '../caixa-cte/handler';
import { type NfeHandler } from '../nfe/handler';

/** Whose distribution it is: the interested party (the company's CNPJ) in the deployment's environment. */
export interface ContextoRecebimento {
  companyId: string;
  cnpj: string;
  environment: Environment;
}

/** The event a consultation's documents are recorded for (`distribuicao.consulta_solicitada`): their ids derive from it. */
export interface CausaRecebimento {
  eventId: string;
  correlationId: string;
}

export interface RecebedorDistribuicaoDeps {
  documents: DocumentStore;
  /** The inbox and the NF-e list, through their own handlers: the same deciders as an upload. */
  handlers: { caixaCte: CaixaCteHandler; nfe: NfeHandler };
  clock: () => Date;
}

export interface RecebedorDistribuicao {
  /**
   * Archives one distributed document byte for byte and records it where an upload of it would go (see `destinoDe`);
   * answers where it went. Idempotent for one cause: every event appended has an id derived from `causa.eventId`,
   * the service and the NSU, so repeating the call records nothing new. A document the readers refuse is `guardado`
   * with the reason; only infrastructure failures (store, database) are thrown.
   */
  registrar(
    ctx: ContextoRecebimento,
    servico: ServicoDistribuicao,
    doc: DocumentoDistribuido,
    causa: CausaRecebimento,
  ): Promise<DocumentoDistribuidoRegistrado>;
}

/**
 * The document's root element (without a namespace prefix), read from its first tag: which reader applies. The
 * national environment wraps each document in its own root (`cteProc`, `procEventoCTe`, `nfeProc`, `resNFe`,
 * `resEvento`, `procEventoNFe`…), and labels it with `docZip/@schema`, which is only a label: the content decides.
 */
function raizDoXml(texto: string): string | null {
  const semPrologo = texto.replace(/^\uFEFF?\s*(<\?xml[^?]*\?>\s*)?(<!--[\s\S]*?-->\s*)*/, '');
  return /^<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(semPrologo)?.[1] ?? null;
}

/** The access key a summary or event names (`chCTe`, `chNFe`), for the listing of what was kept; null when none. */
function chaveCitada(texto: string): string | null {
  return /<(?:[\w.-]+:)?ch(?:CTe|NFe)>\s*([0-9]{44})\s*</.exec(texto)?.[1] ?? null;
}

const RAIZES_CTE = new Set(['cteProc', 'CTe']);
/** Spec section 8: the inbox takes a CT-e XML of up to 2 MB (`POST /fiscal/cte-subcontratacao` answers 413 above it). */
const MAX_CTE_XML = 2 * 1024 * 1024;
const RAIZES_NFE = new Set(['nfeProc', 'NFe']);

/**
 * Where one document of the national distribution goes (design of issue 30): a `cteProc`/`CTe` into the inbox as an
 * upload is recorded (canal `distribuicao`); a registered cancellation (110111) of a key in the inbox marks it
 * cancelled; an NF-e naming the company in `transp/transporta` into the NF-e list as an imported XML file; anything
 * else (summaries, other events, an NF-e naming the company otherwise) only kept; an unreadable `docZip`, nothing.
 */
export function recebedorDistribuicao(deps: RecebedorDistribuicaoDeps): RecebedorDistribuicao {
  const { handlers } = deps;
  /**
   * A decider's refusal is about the document (the processor would take it for a failed consultation and ask again
   * forever): kept, with its reason. Anything else is the infrastructure's and is thrown.
   */
  const recusado = async <T>(gravar: () => Promise<T>): Promise<T | Rejection> => {
    try {
      return await gravar();
    } catch (err) {
      if (err instanceof Rejection) return err;
      throw err;
    }
  };
  return {
    async registrar(ctx, servico, doc, causa) {
      const saida = (o: Pick<DocumentoDistribuidoRegistrado, 'chave' | 'sha256' | 'destino' | 'erro'>): DocumentoDistribuidoRegistrado => ({
        nsu: doc.nsu,
        schema: doc.schema,
        ...o,
      });
      if ('erro' in doc) return saida({ chave: null, sha256: null, destino: 'ilegivel', erro: doc.erro });

      const sha256 = await deps.documents.put(doc.xml, CONTENT_TYPES.xml);
      const guardado = (chave: string | null, erro: string | null = null) => saida({ chave, sha256, destino: 'guardado', erro });
      const contexto: ContextoEmpresa = {
        companyId: ctx.companyId,
        correlationId: causa.correlationId,
        causationId: causa.eventId,
        requestId: null,
        actor: 'processor:distribuicao',
        now: deps.clock(),
      };
      // One document, one event at most: its id is the consultation's and the NSU's.
      const eventId = derivedEventId(causa.eventId, `distribuicao:${servico}:${doc.nsu}`);

      let texto: string;
      try {
        texto = decodeXml(doc.xml);
      } catch (err) {
        if (err instanceof CteReadError) return guardado(null, err.message);
        throw err;
      }
      const raiz = raizDoXml(texto);

      if (raiz !== null && RAIZES_CTE.has(raiz)) {
        if (doc.xml.length > MAX_CTE_XML) return guardado(chaveCitada(texto), 'the CT-e XML is over 2 MB, more than the inbox takes');
        let cte;
        try {
          cte = await readCteDocument(texto);
        } catch (err) {
          if (err instanceof CteReadError) return guardado(chaveCitada(texto), err.message);
          throw err;
        }
        // The company's own CT-e comes back too (the service hands it to its `emit`): it is already among its issued
        // CT-e, and the inbox holds other companies' CT-e, so it is kept only.
        if (normalizeCnpj(cte.emitente.documento ?? '') === normalizeCnpj(ctx.cnpj)) return guardado(cte.chave);
        const recebido = await recusado(() =>
          handlers.caixaCte.receberDistribuido(contexto, ctx.cnpj, { sha256, tamanho_bytes: doc.xml.length, nsu: doc.nsu, cte }, eventId),
        );
        if (recebido instanceof Rejection) return guardado(cte.chave, recebido.message);
        return saida({ chave: cte.chave, sha256, destino: 'caixa_cte', erro: null });
      }

      if (raiz === 'procEventoCTe') {
        let evento;
        try {
          evento = lerProcEventoCte(texto);
        } catch (err) {
          if (err instanceof CteReadError) return guardado(chaveCitada(texto), err.message);
          throw err;
        }
        // Other events (correction letters, delivery proofs…) and an unregistered cancellation are kept only.
        if (evento.tp_evento !== TP_EVENTO_CANCELAMENTO_CTE || !evento.registro) return guardado(evento.chave);
        const registro = evento.registro;
        const r = await recusado(() =>
          handlers.caixaCte.registrarCancelamento(
            contexto,
            { chave: evento.chave, protocolo: registro.protocolo, cancelado_em: registro.registrado_em, sha256, nsu: doc.nsu },
            eventId,
          ),
        );
        if (r instanceof Rejection) return guardado(evento.chave, r.message);
        if (r === 'fora_da_caixa') return guardado(evento.chave);
        return saida({ chave: evento.chave, sha256, destino: 'cancelamento_cte', erro: null });
      }

      if (raiz !== null && RAIZES_NFE.has(raiz)) {
        let nfe;
        try {
          nfe = await readNfeDocument(texto);
        } catch (err) {
          if (err instanceof NfeReadError) return guardado(chaveCitada(texto), err.message);
          throw err;
        }
        // NFeDistribuicaoDFe gives the full XML to the carrier of `transporta`; a company named otherwise keeps it only.
        const transportadora = nfe.transportador?.documento;
        if (!transportadora || normalizeCnpj(transportadora) !== normalizeCnpj(ctx.cnpj)) return guardado(nfe.chave);
        const resultado = await recusado(() =>
          handlers.nfe.receberDistribuida(contexto, { name: `distribuicao-${servico}-${doc.nsu}.xml`, content: doc.xml }, doc.nsu, eventId),
        );
        if (resultado instanceof Rejection) return guardado(nfe.chave, resultado.message);
        if (resultado.nfes.length === 0) return guardado(nfe.chave, resultado.erros[0]?.message ?? 'the NF-e was not imported');
        return saida({ chave: nfe.chave, sha256, destino: 'nfe', erro: null });
      }

      return guardado(chaveCitada(texto));
    },
  };
}
