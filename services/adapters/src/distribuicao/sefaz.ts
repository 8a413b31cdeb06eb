import { type ServicoDistribuicao } from '@frete/contracts';
import { MAX_XML_LENGTH, Rejection } from '@frete/domain';
import { type Remetente } from '../autoridade/port';
import { conteudoDaResposta, ESPERA_FALHA_MS, respostaDoEnvio } from '../autoridade/sefaz/envio';
import { tpAmbDe } from '../autoridade/sefaz/autorizadores';
import { destinoAn } from '../autoridade/sefaz/roteamento';
import { type AutoridadeSefazOptions } from '../autoridade/sefaz/adapter';
import { primeiroNoNamespace } from '../autoridade/sefaz/soap';
import { TransporteSefaz } from '../autoridade/sefaz/transporte';
import {
  abrirDocZip,
  distDFeIntXml,
  envelopeDistribuicao,
  lerRetDistDFeInt,
  MAX_DOCUMENTO_DISTRIBUIDO,
  SOAP_DISTRIBUICAO,
} from './mensagens';
import { type DistribuicaoDFe, type DocumentoDistribuido, type PedidoDistribuicao, type RetornoDistribuicao } from './port';

/**
 * As the authority adapter's (the same `SEFAZ_*` settings and the company's A1), without its channel pauses: the
 * distribution's 656 is the poller's to record.
 */
export type DistribuicaoSefazOptions = Omit<AutoridadeSefazOptions, 'pausaBaseMs'> & {
  /** The largest document a `docZip` may unzip to (10 MB by default); a larger one is that document's `erro`. */
  maxDocumentoBytes?: number;
};

/**
 * The national environment's distribution services (`CTeDistribuicaoDFe` 1.00, `NFeDistribuicaoDFe` 1.01) behind the
 * port: SOAP 1.2 over HTTPS with the company's A1 as client certificate, at `AN`'s address (`destinoAn`). 137 and
 * 138 are `consultado`, each `docZip` unzipped to its bytes (or its `erro`, the others still read); every other
 * status, 656 included, is `rejeitado` with the service's own cStat and text: the poller keeps the wait and the block
 * (the adapter pauses nothing, unlike the authorizers' channel). A timeout or broken connection after sending is
 * `sem_resposta`; an HTTP failure, a SOAP fault or a refused connection throws `AutoridadeIndisponivel`; a refused
 * client certificate throws `CertificadoRecusadoPelaAutoridade`.
 */
export class DistribuicaoDFeSefaz implements DistribuicaoDFe {
  readonly disponivel = true;
  private readonly transporte: TransporteSefaz;
  private readonly clock: () => Date;
  private readonly tpAmb: 1 | 2;

  constructor(private readonly options: DistribuicaoSefazOptions) {
    this.clock = options.clock ?? (() => new Date());
    // Up to 50 documents per answer, an NF-e of many items among them: answers are read up to the XML reader's limit.
    this.transporte = new TransporteSefaz({
      confiancaPem: options.confiancaPem,
      timeoutMs: options.timeoutMs,
      conexoes: options.conexoes,
      maxResposta: MAX_XML_LENGTH,
    });
    this.tpAmb = tpAmbDe(options.ambiente);
  }

  close(): Promise<void> {
    this.transporte.close();
    return Promise.resolve();
  }

  async consultar(pedido: PedidoDistribuicao, remetente: Remetente): Promise<RetornoDistribuicao> {
    const s = SOAP_DISTRIBUICAO[pedido.servico];
    const envelope = envelopeDistribuicao(pedido.servico, distDFeIntXml(pedido, this.tpAmb));
    const destino = destinoAn(s.servico, this.options.ambiente, this.options.enderecos);
    const credencial = await this.options.credencial(remetente.companyId);
    if (!credencial)
      throw new Rejection(
        'certificado_invalido',
        'the company has no readable A1 certificate to open the channel to the national environment',
      );
    const r = await this.transporte.enviar(destino.url, envelope, credencial, s.acao);
    const depois = () => new Date(this.clock().getTime() + ESPERA_FALHA_MS);
    const resposta = respostaDoEnvio(r, depois);
    if (resposta.tipo === 'sem_resposta') return resposta;
    return retornoDistribuicao(pedido.servico, resposta, { maxDocumentoBytes: this.options.maxDocumentoBytes, tentarApos: depois() });
  }
}

/**
 * The port's answer from the service's HTTP answer: 137/138 `consultado` with each `docZip` opened, any other status
 * `rejeitado`; an unreadable 2xx `sem_resposta` (a consultation changes nothing but the service's wait, so it is only
 * asked again); an HTTP failure or a SOAP fault throws `AutoridadeIndisponivel` (try again after `tentarApos`).
 */
export async function retornoDistribuicao(
  servico: ServicoDistribuicao,
  resposta: { status: number; corpo: string },
  o: { maxDocumentoBytes?: number; tentarApos: Date },
): Promise<RetornoDistribuicao> {
  const s = SOAP_DISTRIBUICAO[servico];
  const lido = conteudoDaResposta(resposta, o.tentarApos);
  if (lido.tipo === 'sem_resposta') return lido;
  const ret = primeiroNoNamespace(lido.conteudo, s.portal);
  if (!ret || ret.localName !== 'retDistDFeInt') return { tipo: 'sem_resposta', motivo: 'the answer carries no retDistDFeInt' };
  const lidoRet = lerRetDistDFeInt(ret);
  if (!lidoRet) return { tipo: 'sem_resposta', motivo: 'retDistDFeInt carries no cStat' };
  const { cStat, xMotivo, ultNSU, maxNSU } = lidoRet;
  if (cStat !== 137 && cStat !== 138) return { tipo: 'rejeitado', cStat, xMotivo };
  const nsu = /^[0-9]{15}$/;
  if (!ultNSU || !nsu.test(ultNSU) || !maxNSU || !nsu.test(maxNSU)) {
    return { tipo: 'sem_resposta', motivo: `${cStat} without a 15-digit ultNSU and maxNSU` };
  }
  // Whoever records the documents derives their ids from the NSU: a docZip without one (NF-e 1.01 leaves it optional,
  // for consChNFe only) cannot be recorded safely, so such an answer concludes nothing.
  const semNsu = lidoRet.docZips.find((d) => !nsu.test(d.nsu));
  if (semNsu) return { tipo: 'sem_resposta', motivo: `${cStat} with a docZip whose NSU is not 15 digits (${JSON.stringify(semNsu.nsu)})` };
  const max = o.maxDocumentoBytes ?? MAX_DOCUMENTO_DISTRIBUIDO;
  const documentos: DocumentoDistribuido[] = [];
  // One after the other: at most 50, each unzip bounded, so one answer never holds 50 large buffers in flight.
  for (const d of lidoRet.docZips) {
    const aberto = await abrirDocZip(d.conteudo, max);
    documentos.push('xml' in aberto ? { nsu: d.nsu, schema: d.schema, xml: aberto.xml } : { ...d, erro: aberto.erro });
  }
  return { tipo: 'consultado', cStat, xMotivo, ultNSU, maxNSU, dhResp: lidoRet.dhResp ?? '', documentos };
}
