import { type ServicoDistribuicao } from '@frete/contracts';
import { type Rejeitado, type Remetente, type SemResposta } from '../autoridade/port';

/**
 * The national distribution of fiscal documents behind a port (Ambiente Nacional: `CTeDistribuicaoDFe` for CT-e,
 * `NFeDistribuicaoDFe` for NF-e): every document an authority authorized reaches, by NSU, each party it names. The
 * sandbox consults the simulated national environment (`simulado.ts`), which distributes what the deployment's
 * simulated authority authorized; a deployment with `FISCAL_AUTHORITY=sefaz` the real services (`sefaz.ts`), over
 * mutual TLS with the company's A1; production without an authority, `indisponivel.ts`.
 *
 * Rules of the service (shared/design/sefaz-webservices.md "Distribution"; sources in docs/fatos-autoridades.md):
 * at most 50 documents per answer, in NSU order; 137 nothing new (wait an hour before asking again), 138 documents
 * found; 656 consumo indevido (blocked for an hour, and any call during the block restarts it); always continue from
 * the returned `ultNSU`; documents stay about three months.
 *
 * **No answer.** As with the authority port: an outcome that is unknown resolves to `{ tipo: 'sem_resposta' }` and
 * is never thrown; a channel that refused (HTTP 5xx, SOAP fault, connection refused) throws `AutoridadeIndisponivel`.
 * A consultation changes nothing at the service except its wait, so asking again is safe.
 */

/** One distribution request (`distDFeInt` 1.00 for CT-e, 1.01 for NF-e), continuing from `ultNSU`. */
export interface PedidoDistribuicao {
  servico: ServicoDistribuicao;
  /** IBGE code of the interested party's UF (`cUFAutor`). */
  cUFAutor: string;
  /** The interested party: a CNPJ (14) or a CPF (11). */
  documento: string;
  /** 15 digits (`distNSU/ultNSU`); `000000000000000` for the first consultation. */
  ultNSU: string;
}

/** One document of an answer (`docZip`), already unzipped, or the reason it could not be. */
export type DocumentoDistribuido =
  | {
      nsu: string;
      /** `docZip/@schema`, e.g. `procCTe_v4.00.xsd`, `procEventoCTe_v4.00.xsd`, `procNFe_v4.00.xsd`, `resNFe_v1.01.xsd`. */
      schema: string;
      /** The document's bytes, as the service distributed them (gunzip of the Base64 content), never reserialised. */
      xml: Buffer;
    }
  | {
      nsu: string;
      schema: string;
      /** Why the content could not be read (Base64 or gzip broken); `conteudo` is the element's text as received. */
      erro: string;
      conteudo: string;
    };

export interface RespostaDistribuicao {
  tipo: 'consultado';
  /** 137 nothing found, 138 documents found. */
  cStat: 137 | 138;
  xMotivo: string;
  /** 15 digits: the last NSU of this answer (or the one asked, when nothing was found). */
  ultNSU: string;
  /** 15 digits: the highest NSU the service holds for this party. */
  maxNSU: string;
  /** `dhResp` as the service wrote it. */
  dhResp: string;
  documentos: DocumentoDistribuido[];
}

/**
 * A rejection carries the service's `cStat`: 656 consumo indevido (blocked), 593 the certificate's CNPJ base is not
 * the party's, 589 NSU above the highest, 215/225 schema, 252 environment, 236/489 party's document invalid…
 */
export type RetornoDistribuicao = RespostaDistribuicao | Rejeitado | SemResposta;

export interface DistribuicaoDFe {
  /** False when no service is reachable (production without an authority): the poller consults nothing. */
  readonly disponivel: boolean;
  consultar(pedido: PedidoDistribuicao, remetente: Remetente): Promise<RetornoDistribuicao>;
}
