import { type Pool } from 'pg';
import { type DadosEventoMdfe, type Environment, type TipoEventoMdfe } from '@frete/contracts';
import {
  type DetalheEventoMdfe,
  dhSaoPaulo,
  type MdfeCommand,
  type MdfeEvent,
  type MdfeState,
  montarEventoMdfeXml,
  proximoEventoMdfe,
  ufBySigla,
} from '@frete/domain';
import { companyOf } from '@frete/projections';
import { montarProcEventoMdfe } from '@frete/adapters';
import { EmissorDocumento, type EmissaoDeps, protocoloDe } from '../emissao/emissor';
import { MDFE_EMITIDO } from '../emissao/documentos/mdfe';
import { type Assinado } from '../emissao/assinar';
import { enviarEvento } from '../emissao/evento';

export type AssinarEventoMdfe = (companyId: string, xml: string) => Promise<Assinado>;

export interface EmissorMdfeDeps extends EmissaoDeps {
  pool: Pool;
  assinarEvento: AssinarEventoMdfe;
  environment: Environment;
}

/** What an event request gave: registered (200), pending (202) or refused by the authority (422 with cStat). */
export type ResultadoEventoMdfe =
  | { situacao: 'registrado'; n_seq: number; tp_evento: string; cstat: number; motivo: string }
  | { situacao: 'pendente'; n_seq: number; tp_evento: string; motivo: string }
  | { situacao: 'rejeitado'; n_seq: number; tp_evento: string; cstat: number; motivo: string };

/**
 * Issues MDF-e (the emission processor reacts to `mdfe.emissao_solicitada`) the same way as CT-e, and registers their
 * events.
 */
export class EmissorMdfe extends EmissorDocumento<MdfeCommand, MdfeState, MdfeEvent> {
  constructor(private readonly mdfeDeps: EmissorMdfeDeps) {
    super(mdfeDeps, MDFE_EMITIDO);
  }

  /**
   * Registers an event (cancelamento, encerramento, inclusão de condutor) synchronously: builds and signs the
   * `eventoMDFe` (or takes the pending one's signed bytes), sends it and records the answer. Rules of the MDF-e's own
   * state are `Rejection`s (thrown by `proximoEventoMdfe`).
   */
  /** An event's outcome, written for the API request that asked for it (`cause` is that request): its next reads see it. */
  private recordDoPedido(companyId: string, mdfeId: string, cause: string, command: MdfeCommand) {
    return this.record(companyId, mdfeId, cause, command, cause);
  }

  async registrarEvento(
    companyId: string,
    mdfeId: string,
    tipo: TipoEventoMdfe,
    dados: DadosEventoMdfe,
    cause: string,
  ): Promise<ResultadoEventoMdfe> {
    const state = await this.estado(mdfeId);
    if (!state.existe || state.company_id !== companyId) throw new Error(`MDF-e ${mdfeId} is not of company ${companyId}`);
    const prox = proximoEventoMdfe(state, tipo);
    const { tp_evento, n_seq } = prox;
    const evDados = prox.pendente ? prox.pendente.dados : dados;
    const base = { mdfe_id: mdfeId, company_id: companyId, tipo, tp_evento, n_seq, dados: evDados };
    let signedXml: string;
    if (prox.pendente?.sha256) {
      signedXml = await this.assinado(prox.pendente.sha256, mdfeId);
    } else {
      const company = await companyOf(this.mdfeDeps.pool, companyId, '');
      const detalhe = detalheDe(tipo, evDados, state.n_prot ?? '');
      const built = montarEventoMdfeXml({
        chave: state.chave!,
        cnpj: company?.cnpj ?? '',
        nSeq: n_seq,
        dhEvento: dhSaoPaulo(this.deps.clock()),
        ambiente: this.mdfeDeps.environment,
        detalhe,
      });
      const s = await this.mdfeDeps.assinarEvento(companyId, built.xml);
      if (s.tipo === 'recusado') {
        await this.recordDoPedido(companyId, mdfeId, cause, {
          type: 'RegistrarEventoRejeitadoMdfe',
          data: { ...base, cstat: s.cstat, motivo: s.motivo },
        });
        return { situacao: 'rejeitado', tp_evento, n_seq, cstat: s.cstat, motivo: s.motivo };
      }
      signedXml = s.xml;
    }
    const sha = await this.deps.documents.put(Buffer.from(signedXml, 'utf8'), 'application/xml');
    const r = await enviarEvento(
      this.deps.documents,
      signedXml,
      (xml) => this.deps.autoridade.registrarEventoMdfe(xml, { companyId }),
      montarProcEventoMdfe,
    );
    switch (r.tipo) {
      case 'registrado':
        await this.recordDoPedido(companyId, mdfeId, cause, {
          type: 'RegistrarEventoMdfe',
          data: { ...base, protocolo: protocoloDe(r.protocolo), sha256: r.sha256 },
        });
        return { situacao: 'registrado', tp_evento, n_seq, cstat: r.protocolo.cStat, motivo: r.protocolo.xMotivo };
      case 'rejeitado':
        await this.recordDoPedido(companyId, mdfeId, cause, {
          type: 'RegistrarEventoRejeitadoMdfe',
          data: { ...base, cstat: r.cstat, motivo: r.motivo },
        });
        if (r.recusa) throw r.recusa;
        return { situacao: 'rejeitado', tp_evento, n_seq, cstat: r.cstat, motivo: r.motivo };
      case 'pendente': {
        const motivo = r.motivo ?? 'the authority did not answer; send the same request again';
        await this.recordDoPedido(companyId, mdfeId, cause, {
          type: 'RegistrarEventoPendenteMdfe',
          data: { ...base, sha256: sha, motivo },
        });
        return { situacao: 'pendente', tp_evento, n_seq, motivo };
      }
    }
  }
}

function detalheDe(tipo: TipoEventoMdfe, d: DadosEventoMdfe, nProt: string): DetalheEventoMdfe {
  switch (tipo) {
    case 'cancelamento':
      return { tipo, nProt, justificativa: d.justificativa ?? '' };
    case 'encerramento':
      return {
        tipo,
        nProt,
        data: d.data ?? '',
        cUF: ufBySigla(d.municipio?.uf ?? '')?.codigo_ibge ?? '',
        cMun: d.municipio?.codigo_ibge ?? '',
      };
    case 'condutor':
      return { tipo, nome: d.condutor?.nome ?? '', cpf: d.condutor?.cpf ?? '' };
  }
}
