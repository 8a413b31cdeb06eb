import { textoFiscal } from '../xml/montar';
import { type Environment } from '@frete/contracts';
import { dhSaoPaulo } from '../../fiscal/datas';

/**
 * The `eventoCTe` 4.00 of an own CT-e (MOC 4.00 Visão Geral §6, eventoCTe_v4.00.xsd), unsigned and compact:
 * cancelamento 110111, carta de correção 110110, comprovante de entrega 110180 and its cancelamento 110181.
 * The signature goes on `infEvento` (its `Id` = "ID" + tpEvento + key + nSeqEvento in three digits).
 */

export const CTE_NS = 'http://www.portalfiscal.inf.br/cte';

export const TP_EVENTO_CTE = {
  cancelamento: '110111',
  carta_correcao: '110110',
  entrega: '110180',
  entrega_cancelamento: '110181',
} as const;
export type TipoEventoCte = keyof typeof TP_EVENTO_CTE;
export type TpEventoCte = (typeof TP_EVENTO_CTE)[TipoEventoCte];

export const tipoDoTpEvento = (tp: string): TipoEventoCte | null =>
  (Object.keys(TP_EVENTO_CTE) as TipoEventoCte[]).find((k) => TP_EVENTO_CTE[k] === tp) ?? null;

/** `xCondUso` of the CC-e: the legal text, exactly as the schema enumerates it (the ASCII spelling). */
export const CCE_CONDICAO_DE_USO =
  'A Carta de Correcao e disciplinada pelo Art. 58-B do CONVENIO/SINIEF 06/89: Fica permitida a utilizacao de carta de correcao, ' +
  'para regularizacao de erro ocorrido na emissao de documentos fiscais relativos a prestacao de servico de transporte, desde que o ' +
  'erro nao esteja relacionado com: I - as variaveis que determinam o valor do imposto tais como: base de calculo, aliquota, ' +
  'diferenca de preco, quantidade, valor da prestacao;II - a correcao de dados cadastrais que implique mudanca do emitente, tomador, ' +
  'remetente ou do destinatario;III - a data de emissao ou de saida.';

export interface CorrecaoCte {
  grupoAlterado: string;
  campoAlterado: string;
  valorAlterado: string;
  /** Index (1–99) of the item when the field is in a list. */
  nroItemAlterado?: number;
}

export type DetalheEventoCte =
  | { tpEvento: '110111'; nProt: string; xJust: string }
  | { tpEvento: '110110'; correcoes: CorrecaoCte[] }
  | {
      tpEvento: '110180';
      nProt: string;
      /** `AAAA-MM-DDThh:mm:ss-03:00`. */
      dhEntrega: string;
      nDoc: string;
      xNome: string;
      latitude?: number | null;
      longitude?: number | null;
      /** Base64 SHA-1 (20 bytes) of the delivery image. */
      hashEntrega: string;
      dhHashEntrega: string;
      nfes: string[];
    }
  | { tpEvento: '110181'; nProt: string; nProtCE: string };

/** Where and when an event of the CT-e `chave` goes, whoever its author (the emitter's events and the taker's alike). */
export interface EnvioEventoCte {
  chave: string;
  tpAmb: 1 | 2;
  /** The key's cUF: the CT-e's authorizer receives every event of it (MOC §5.1.1 IP05). */
  cOrgao: string;
  nSeqEvento: number;
  /** `AAAA-MM-DDThh:mm:ss-03:00`. */
  dhEvento: string;
}

/** The envelope's fields of the `nSeqEvento`-th event of the CT-e `chave`, sent now to the environment's authorizer. */
export const envioEventoCte = (ambiente: Environment, chave: string, nSeqEvento: number, agora: Date): EnvioEventoCte => ({
  chave,
  tpAmb: ambiente === 'producao' ? 1 : 2,
  cOrgao: chave.slice(0, 2),
  nSeqEvento,
  dhEvento: dhSaoPaulo(agora),
});

export interface MontarEventoCteInput extends EnvioEventoCte {
  cnpjAutor: string;
  detalhe: DetalheEventoCte;
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
/** One element with its text escaped: what every event detail is written with. */
export const elementoEvento = (name: string, value: string) => `<${name}>${escapeXml(value)}</${name}>`;
const t = elementoEvento;
const coordenada = (v: number) => v.toFixed(6);

/** `ID` + tpEvento + key + nSeqEvento (3 digits): the event's `Id`, which the API also uses as `event_key`. */
export const idEventoCte = (tpEvento: string, chave: string, nSeqEvento: number) =>
  `ID${tpEvento}${chave}${String(nSeqEvento).padStart(3, '0')}`;

function detalheXml(d: DetalheEventoCte): string {
  switch (d.tpEvento) {
    case '110111':
      return `<evCancCTe>${t('descEvento', 'Cancelamento')}${t('nProt', d.nProt)}${t('xJust', textoFiscal(d.xJust, 255))}</evCancCTe>`;
    case '110110':
      return (
        `<evCCeCTe>${t('descEvento', 'Carta de Correcao')}` +
        d.correcoes
          .map(
            (c) =>
              '<infCorrecao>' +
              t('grupoAlterado', c.grupoAlterado) +
              t('campoAlterado', c.campoAlterado) +
              t('valorAlterado', textoFiscal(c.valorAlterado, 500)) +
              (c.nroItemAlterado !== undefined ? t('nroItemAlterado', String(c.nroItemAlterado).padStart(2, '0')) : '') +
              '</infCorrecao>',
          )
          .join('') +
        `${t('xCondUso', CCE_CONDICAO_DE_USO)}</evCCeCTe>`
      );
    case '110180':
      return (
        `<evCECTe>${t('descEvento', 'Comprovante de Entrega do CT-e')}${t('nProt', d.nProt)}${t('dhEntrega', d.dhEntrega)}` +
        `${t('nDoc', d.nDoc)}${t('xNome', textoFiscal(d.xNome, 60))}` +
        (d.latitude !== undefined && d.latitude !== null ? t('latitude', coordenada(d.latitude)) : '') +
        (d.longitude !== undefined && d.longitude !== null ? t('longitude', coordenada(d.longitude)) : '') +
        `${t('hashEntrega', d.hashEntrega)}${t('dhHashEntrega', d.dhHashEntrega)}` +
        d.nfes.map((k) => `<infEntrega>${t('chNFe', k)}</infEntrega>`).join('') +
        '</evCECTe>'
      );
    case '110181':
      return `<evCancCECTe>${t('descEvento', 'Cancelamento do Comprovante de Entrega do CT-e')}${t('nProt', d.nProt)}${t('nProtCE', d.nProtCE)}</evCancCECTe>`;
  }
}

/** The `eventoCTe` 4.00 envelope around a detail, whoever its author (the emitter's events and the taker's alike). */
export interface EnvelopeEventoCte extends EnvioEventoCte {
  /** The author's CNPJ (14, numeric or alphanumeric) or CPF (11). */
  documentoAutor: string;
  tpEvento: string;
  /** The detail's own element (`evCancCTe`, `evPrestDesacordo`…), already written. */
  detalheXml: string;
}

/** The unsigned `eventoCTe` of any detail and its `Id`. */
export function eventoCteXml(i: EnvelopeEventoCte): { id: string; xml: string } {
  const id = idEventoCte(i.tpEvento, i.chave, i.nSeqEvento);
  const autor = i.documentoAutor.length === 11 ? t('CPF', i.documentoAutor) : t('CNPJ', i.documentoAutor);
  const xml =
    `<eventoCTe xmlns="${CTE_NS}" versao="4.00"><infEvento Id="${id}">` +
    t('cOrgao', i.cOrgao) +
    t('tpAmb', String(i.tpAmb)) +
    autor +
    t('chCTe', i.chave) +
    t('dhEvento', i.dhEvento) +
    t('tpEvento', i.tpEvento) +
    t('nSeqEvento', String(i.nSeqEvento)) +
    `<detEvento versaoEvento="4.00">${i.detalheXml}</detEvento>` +
    '</infEvento></eventoCTe>';
  return { id, xml };
}

/** The unsigned `eventoCTe` of the emitter's events and its `Id`. */
export const montarEventoCte = ({ cnpjAutor, detalhe, ...i }: MontarEventoCteInput): { id: string; xml: string } =>
  eventoCteXml({ ...i, documentoAutor: cnpjAutor, tpEvento: detalhe.tpEvento, detalheXml: detalheXml(detalhe) });
