import { gzipSync } from 'node:zlib';
import { type Environment } from '@frete/contracts';
import { Rejection, ufByCode } from '@frete/domain';
import { type XmlElement } from '@frete/documents';
import {
  type AutoridadeFiscal,
  type ModeloFiscal,
  type Remetente,
  type RetornoAutorizacao,
  type RetornoConsulta,
  type RetornoEvento,
  type RetornoNaoEncerrados,
  type RetornoStatusServico,
  type SemResposta,
} from '../port';
import { cStatDoCanal } from '../codigos';
import { semDeclaracao } from '../proc';
import { type ServicoSefaz, tpAmbDe } from './autorizadores';
import { type Destino, destinoDaChave, destinoSefaz, type EnderecosConfigurados } from './roteamento';
import { envelopeDoPedido, PORTAL_NS, primeiroNoNamespace } from './soap';
import { conteudoDaResposta, ESPERA_FALHA_MS, respostaDoEnvio } from './envio';
import { type CredencialTls, TransporteSefaz } from './transporte';
import { PausasDoCanal } from './canal';
import {
  brutoUnico,
  chaveDoDocumento,
  consultaNaoEncerrados,
  consultaSituacao,
  consultaStatus,
  cStatDe,
  dadosDoEvento,
  digestDoDocumento,
  eventosDaConsulta,
  filho,
  filhos,
  type Layout,
  LAYOUTS,
  protocoloDoDocumento,
  protocoloDoEvento,
  texto,
} from './mensagens';

export interface AutoridadeSefazOptions {
  /** homologação talks to the authorities' test environment (`tpAmb` 2), produção to production (1). */
  ambiente: Environment;
  /** `SEFAZ_ENDPOINTS` and `SEFAZ_BASE_URL` over the built-in table. */
  enderecos: EnderecosConfigurados;
  /** `SEFAZ_CA_FILE`'s PEM bundle: the servers' certificates must chain to it. */
  confiancaPem: string;
  /** `SEFAZ_TIMEOUT_MS`: past it, a sent request is `sem_resposta`. */
  timeoutMs: number;
  /** The company's A1 as client certificate (the one that signs its documents), or null when it has none. */
  credencial: (companyId: string) => Promise<CredencialTls | null>;
  clock?: () => Date;
  /** The base of the channel's pauses (see `PausasDoCanal`). */
  pausaBaseMs?: number;
  /** `SEFAZ_CONEXOES`: connections open at once per company certificate. */
  conexoes?: number;
}

const SERVICOS: Record<ModeloFiscal, { recepcao: ServicoSefaz; consulta: ServicoSefaz; evento: ServicoSefaz; status: ServicoSefaz }> = {
  cte: { recepcao: 'CTeRecepcaoSincV4', consulta: 'CTeConsultaV4', evento: 'CTeRecepcaoEventoV4', status: 'CTeStatusServicoV4' },
  mdfe: { recepcao: 'MDFeRecepcaoSinc', consulta: 'MDFeConsulta', evento: 'MDFeRecepcaoEvento', status: 'MDFeStatusServico' },
};

type Resposta = { tipo: 'retorno'; ret: XmlElement; texto: string } | SemResposta;

/**
 * The state authorities' web services (CT-e 4.00, MDF-e 3.00) behind the port: SOAP 1.2 over HTTPS with the
 * company's A1 as client certificate, routed by the emitter's UF (and a contingency key's tpEmis). Answers are mapped
 * to the port's types with the authority's own cStat/xMotivo, protocols kept byte for byte. A timeout or broken
 * connection after sending is `sem_resposta`; a duplicate (204/539, 631) is completed by a consultation, as the port
 * promises its protocol; channel statuses (108/109/678) pause the channel and throw `AutoridadeIndisponivel`, as do an
 * HTTP failure and a SOAP fault; a refused client certificate throws `CertificadoRecusadoPelaAutoridade`.
 */
export class AutoridadeFiscalSefaz implements AutoridadeFiscal {
  readonly disponivel = true;
  private readonly transporte: TransporteSefaz;
  private readonly pausas: PausasDoCanal;
  private readonly clock: () => Date;
  private readonly tpAmb: 1 | 2;

  constructor(private readonly options: AutoridadeSefazOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.transporte = new TransporteSefaz({ confiancaPem: options.confiancaPem, timeoutMs: options.timeoutMs, conexoes: options.conexoes });
    this.pausas = new PausasDoCanal(this.clock, options.pausaBaseMs);
    this.tpAmb = tpAmbDe(options.ambiente);
  }

  close(): Promise<void> {
    this.transporte.close();
    return Promise.resolve();
  }

  autorizarCte(xml: string, remetente: Remetente): Promise<RetornoAutorizacao> {
    return this.autorizar(LAYOUTS.cte, xml, remetente);
  }

  consultarCte(chave: string, remetente: Remetente): Promise<RetornoConsulta> {
    return this.consultar(LAYOUTS.cte, chave, remetente);
  }

  registrarEventoCte(xml: string, remetente: Remetente): Promise<RetornoEvento> {
    return this.registrarEvento(LAYOUTS.cte, xml, remetente);
  }

  autorizarMdfe(xml: string, remetente: Remetente): Promise<RetornoAutorizacao> {
    return this.autorizar(LAYOUTS.mdfe, xml, remetente);
  }

  consultarMdfe(chave: string, remetente: Remetente): Promise<RetornoConsulta> {
    return this.consultar(LAYOUTS.mdfe, chave, remetente);
  }

  registrarEventoMdfe(xml: string, remetente: Remetente): Promise<RetornoEvento> {
    return this.registrarEvento(LAYOUTS.mdfe, xml, remetente);
  }

  // -------------------------------------------------------------------------------------------------------------

  /** One call: the pause in force, the client certificate, the POST, and the answer's portal element. */
  private async chamar(servico: ServicoSefaz, destino: Destino, cUF: string, dados: string, remetente: Remetente): Promise<Resposta> {
    this.pausas.verificar(destino.autorizador, remetente.companyId);
    const credencial = await this.options.credencial(remetente.companyId);
    if (!credencial)
      throw new Rejection('certificado_invalido', 'the company has no readable A1 certificate to open the channel to the authority');
    const modelo = ehCteServico(servico) ? 'cte' : 'mdfe';
    const versaoDados = LAYOUTS[modelo].versao;
    const envelope = envelopeDoPedido({ servico, cUF, versaoDados, dados });
    const r = await this.transporte.enviar(destino.url, envelope, credencial);
    const depois = () => new Date(this.clock().getTime() + ESPERA_FALHA_MS);
    const resposta = respostaDoEnvio(r, depois);
    if (resposta.tipo === 'sem_resposta') return resposta;
    const lido = conteudoDaResposta(resposta, depois());
    if (lido.tipo === 'sem_resposta') return lido;
    const ret = primeiroNoNamespace(lido.conteudo, PORTAL_NS[modelo]);
    if (!ret) return { tipo: 'sem_resposta', motivo: 'the answer carries no element of the portal namespace' };
    return { tipo: 'retorno', ret, texto: resposta.corpo };
  }

  private canal(destino: Destino, remetente: Remetente, cStat: number, xMotivo: string): never {
    throw this.pausas.pausar(destino.autorizador, remetente.companyId, cStat, xMotivo);
  }

  private async autorizar(l: Layout, xml: string, remetente: Remetente): Promise<RetornoAutorizacao> {
    const chave = chaveDoDocumento(l, xml);
    if (!chave) throw new Error(`the signed ${l.modelo} carries no access key`);
    const servico = SERVICOS[l.modelo].recepcao;
    const destino = destinoDaChave(chave, servico, this.options.ambiente, this.options.enderecos);
    const dados = gzipSync(Buffer.from(semDeclaracao(xml), 'utf8')).toString('base64');
    const r = await this.chamar(servico, destino, chave.slice(0, 2), dados, remetente);
    if (r.tipo === 'sem_resposta') return r;
    const cStat = cStatDe(r.ret);
    const xMotivo = texto(r.ret, 'xMotivo') ?? '';
    if (cStatDoCanal(cStat)) this.canal(destino, remetente, cStat, xMotivo);
    const denegado = l.modelo === 'cte' && cStat >= 301 && cStat <= 306;
    if (cStat === 100 || denegado) {
      const bruto = brutoUnico(r.texto, l.prot, l.ns);
      if (!bruto) return { tipo: 'sem_resposta', motivo: `${cStat} without ${l.prot}: consult the key` };
      const protocolo = protocoloDoDocumento(l, bruto);
      if (protocolo.cStat === 100) return { tipo: 'autorizado', cStat: 100, xMotivo: protocolo.xMotivo, protocolo };
      return { tipo: 'denegado', cStat: protocolo.cStat, xMotivo: protocolo.xMotivo, protocolo };
    }
    if (cStat === 105) return { tipo: 'em_processamento', cStat: 105, xMotivo };
    if (cStat === 204 || cStat === 539) return this.duplicidade(l, cStat, xMotivo, chave, xml, remetente);
    return { tipo: 'rejeitado', cStat, xMotivo };
  }

  /**
   * A duplicate's answer carries the existing document's key (539: in the text) but not its protocol: the port
   * promises it, so it is asked of the consultation. Without it, nothing is concluded (`sem_resposta`: consult later).
   */
  private async duplicidade(
    l: Layout,
    cStat: 204 | 539,
    xMotivo: string,
    chave: string,
    xml: string,
    remetente: Remetente,
  ): Promise<RetornoAutorizacao> {
    const existente = cStat === 204 ? chave : /[0-9]{6}[0-9A-Z]{12}[0-9]{26}/.exec(xMotivo.replace(chave, ''))?.[0];
    if (!existente) return { tipo: 'rejeitado', cStat, xMotivo };
    const c = await this.consultar(l, existente, remetente);
    if (c.tipo !== 'encontrado') return { tipo: 'sem_resposta', motivo: `${cStat} and the consultation of ${existente} gave ${c.tipo}` };
    const mesmoConteudo = cStat === 204 && c.protocolo.chave === chave && c.protocolo.digVal === digestDoDocumento(xml);
    return { tipo: 'duplicidade', cStat, xMotivo, situacao: c.situacao, mesmoConteudo, protocolo: c.protocolo };
  }

  private async consultar(l: Layout, chave: string, remetente: Remetente): Promise<RetornoConsulta> {
    const servico = SERVICOS[l.modelo].consulta;
    const destino = destinoDaChave(chave, servico, this.options.ambiente, this.options.enderecos);
    const r = await this.chamar(servico, destino, chave.slice(0, 2), consultaSituacao(l, this.tpAmb, chave), remetente);
    if (r.tipo === 'sem_resposta') return r;
    const cStat = cStatDe(r.ret);
    const xMotivo = texto(r.ret, 'xMotivo') ?? '';
    if (cStatDoCanal(cStat)) this.canal(destino, remetente, cStat, xMotivo);
    const situacao = situacaoDaConsulta(l, cStat);
    if (situacao) {
      const bruto = brutoUnico(r.texto, l.prot, l.ns);
      if (!bruto) return { tipo: 'sem_resposta', motivo: `${cStat} without ${l.prot}` };
      return {
        tipo: 'encontrado',
        cStat,
        xMotivo,
        situacao,
        protocolo: protocoloDoDocumento(l, bruto),
        eventos: eventosDaConsulta(l, r.texto),
        // The consultation tells only registered events: one still in processing is found by sending it again.
        eventosEmProcessamento: [],
      };
    }
    if (cStat === 217) return { tipo: 'nao_encontrado', cStat: 217, xMotivo };
    if (cStat === 105) return { tipo: 'em_processamento', cStat: 105, xMotivo };
    return { tipo: 'rejeitado', cStat, xMotivo };
  }

  private async registrarEvento(l: Layout, xml: string, remetente: Remetente): Promise<RetornoEvento> {
    const ev = dadosDoEvento(l, xml);
    if (!ev) throw new Error(`the signed ${l.modelo} event carries no key, type or sequence`);
    const servico = SERVICOS[l.modelo].evento;
    const destino = destinoDaChave(ev.chave, servico, this.options.ambiente, this.options.enderecos);
    const r = await this.chamar(servico, destino, ev.chave.slice(0, 2), semDeclaracao(xml), remetente);
    if (r.tipo === 'sem_resposta') return r;
    const inf = filho(r.ret, 'infEvento');
    if (!inf) return { tipo: 'sem_resposta', motivo: `${r.ret.localName ?? ''} without infEvento` };
    const cStat = cStatDe(inf);
    const xMotivo = texto(inf, 'xMotivo') ?? '';
    if (cStatDoCanal(cStat)) this.canal(destino, remetente, cStat, xMotivo);
    if (cStat === 135 || cStat === 136) {
      const bruto = brutoUnico(r.texto, l.retEvento, l.ns);
      if (!bruto) return { tipo: 'sem_resposta', motivo: `${cStat} without ${l.retEvento}` };
      return { tipo: 'registrado', cStat, xMotivo, protocolo: protocoloDoEvento(l, bruto) };
    }
    if (cStat === 105) return { tipo: 'em_processamento', cStat: 105, xMotivo };
    if (cStat === 631) {
      // The answer does not carry the registered event's protocol: the consultation lists it.
      const c = await this.consultar(l, ev.chave, remetente);
      const registrado =
        c.tipo === 'encontrado' ? c.eventos.find((e) => e.tpEvento === ev.tpEvento && e.nSeqEvento === ev.nSeqEvento) : undefined;
      if (!registrado) return { tipo: 'sem_resposta', motivo: `631 and the consultation does not list the event (${c.tipo})` };
      return { tipo: 'duplicidade', cStat: 631, xMotivo, protocolo: registrado };
    }
    return { tipo: 'rejeitado', cStat, xMotivo };
  }

  async statusServico(modelo: ModeloFiscal, cUF: string, remetente: Remetente): Promise<RetornoStatusServico> {
    const l = LAYOUTS[modelo];
    const uf = ufByCode(cUF);
    if (!uf) throw new Error(`no UF of IBGE code ${cUF}`);
    const servico = SERVICOS[modelo].status;
    const destino = destinoSefaz(uf.sigla, servico, this.options.ambiente, this.options.enderecos);
    const r = await this.chamar(servico, destino, cUF, consultaStatus(l, this.tpAmb, cUF), remetente);
    if (r.tipo === 'sem_resposta') return r;
    const cStat = cStatDe(r.ret);
    const xMotivo = texto(r.ret, 'xMotivo') ?? '';
    // A paralysed service is this call's answer, and it also keeps the documents away from the channel.
    if (cStat === 108 || cStat === 109) this.pausas.pausar(destino.autorizador, remetente.companyId, cStat, xMotivo);
    else if (cStatDoCanal(cStat)) this.canal(destino, remetente, cStat, xMotivo);
    if (cStat !== 107 && cStat !== 108 && cStat !== 109) return { tipo: 'rejeitado', cStat, xMotivo };
    const tMed = texto(r.ret, 'tMed');
    return {
      tipo: 'status',
      cStat,
      xMotivo,
      tpAmb: texto(r.ret, 'tpAmb') === '1' ? 1 : 2,
      verAplic: texto(r.ret, 'verAplic') ?? '',
      cUF: texto(r.ret, 'cUF') ?? cUF,
      dhRecbto: texto(r.ret, 'dhRecbto') ?? '',
      tMed: tMed === null ? null : Number(tMed),
      dhRetorno: texto(r.ret, 'dhRetorno'),
      xObs: texto(r.ret, 'xObs'),
    };
  }

  async consultarMdfeNaoEncerrados(documento: string, cUF: string, remetente: Remetente): Promise<RetornoNaoEncerrados> {
    const uf = ufByCode(cUF);
    if (!uf) throw new Error(`no UF of IBGE code ${cUF}`);
    const destino = destinoSefaz(uf.sigla, 'MDFeConsNaoEnc', this.options.ambiente, this.options.enderecos);
    const r = await this.chamar('MDFeConsNaoEnc', destino, cUF, consultaNaoEncerrados(this.tpAmb, documento), remetente);
    if (r.tipo === 'sem_resposta') return r;
    const cStat = cStatDe(r.ret);
    const xMotivo = texto(r.ret, 'xMotivo') ?? '';
    if (cStatDoCanal(cStat)) this.canal(destino, remetente, cStat, xMotivo);
    if (cStat !== 111 && cStat !== 112) return { tipo: 'rejeitado', cStat, xMotivo };
    const mdfes = filhos(r.ret, 'infMDFe').map((i) => ({ chave: texto(i, 'chMDFe') ?? '', nProt: texto(i, 'nProt') ?? '' }));
    return { tipo: 'consultado', cStat, xMotivo, mdfes };
  }
}

const ehCteServico = (servico: ServicoSefaz) => servico.startsWith('CTe');

/** Where a consulted document stands, by the consultation's cStat (none for 217, 105 and rejections). */
function situacaoDaConsulta(l: Layout, cStat: number): 'autorizado' | 'cancelado' | 'denegado' | 'encerrado' | null {
  if (cStat === 100) return 'autorizado';
  if (cStat === 101) return 'cancelado';
  if (l.modelo === 'cte' && cStat === 110) return 'denegado';
  if (l.modelo === 'mdfe' && cStat === 132) return 'encerrado';
  return null;
}
