import { type TipoDesacordo } from '@frete/contracts';
import { Rejection } from '../decider';
import { normalizeCnpj } from '../fiscal/documents';
import { elementoEvento, type EnvioEventoCte, eventoCteXml, idEventoCte } from '../cte/eventos/montar';
import { textoFiscal } from '../cte/xml/montar';

/**
 * The taker's events about a CT-e another company issued (MOC 4.00 Visão Geral §3.7.1 "Evento: Tomador", §6.5, §6.6):
 *
 * - 610110 prestação do serviço em desacordo (`evPrestDesacordo`: `descEvento`, `indDesacordoOper` = 1, `xObs` 15–255);
 * - 610111 its cancellation (`evCancPrestDesacordo`: `descEvento`, `nProtEvPrestDes`, the 610110's protocol).
 *
 * Author: the CT-e's taker (`toma3` party or `toma4`), its CNPJ in `infEvento/CNPJ`, signed with an A1 of the taker's
 * CNPJ root (§6.5 "Autor do Evento"; rule N19, 755 otherwise). Received by "SEFAZ Autoriz." (§3.7.1 table, "Local
 * Evento"): the authorizer of the CT-e itself, named by its key (cUF, and tpEmis 7/8 for SVC), with `cOrgao` = the
 * key's cUF (N02, 677) — never the taker's UF, and never SVRS by default. Sources of that routing besides the manual:
 * nfephp-org/sped-cte PR #164 ("deve ser informado o Estado do Evento do Emitente do CT-e"; it was AN before, a
 * service that does not exist there), sped-cte issue #348 (its `sefazManifesta` still defaults `$ufEvento = 'RS'`, and
 * companies of MT get "677 Órgão de recepção do evento inválido": the frequent defect), Hercules-NET/ZeusFiscal PR
 * #180 ("a url e orgão de destino do evento devem ser para o Estado de emissão do CTe"). Limits: 610110 within 45 days
 * of the CT-e's authorization (§6.5.1 O05, 787), `nSeqEvento` 1–20 per type (O01, 636; wmixvideo/nfe PR #911);
 * 610111 needs the 610110's protocol registered and not cancelled (§6.6.1 O03, 866). `descEvento` goes in the
 * schema's ASCII spelling (both are enumerated): MT refused the accented one with 402 (ZeusAutomacao/DFe.NET #1386).
 */

export const TP_EVENTO_DESACORDO = { desacordo: '610110', cancelamento_desacordo: '610111' } as const;
export type TpEventoDesacordo = (typeof TP_EVENTO_DESACORDO)[TipoDesacordo];

/** §6.5.1 O05: days after the CT-e's authorization within which the taker may disagree. */
export const PRAZO_DESACORDO_DIAS = 45;
/** §6.5.1 / §6.6.1 O01: the sequence of each type runs from 1 to 20. */
export const DESACORDO_SEQ_MAXIMA = 20;
/** evPrestDesacordo_v4.00.xsd: `xObs` length. */
export const OBSERVACAO_DESACORDO = { min: 15, max: 255 } as const;

/** The manual's codes and texts the service applies itself before sending (§5.1.5 N19, §6.5.1, §6.6.1). */
export const REJEICOES_DESACORDO = {
  636: 'Rejeição: O número sequencial do evento é maior que o permitido',
  755: 'Rejeição: Autor do evento prestação do serviço em desacordo deve ser o tomador do serviço do CTe',
  787: 'Rejeição: Data do evento de Prestação do Serviço em desacordo deve ocorrer em até 45 dias da autorização do CTe',
  866: 'Rejeição: Protocolo do evento a ser cancelado não existe, não está associado ao CTe ou já está cancelado',
} as const;

export type DetalheDesacordo = { tpEvento: '610110'; xObs: string } | { tpEvento: '610111'; nProtEvPrestDes: string };

export interface MontarEventoDesacordoInput extends EnvioEventoCte {
  /** The taker's CNPJ (14) or CPF (11): the author. */
  documentoAutor: string;
  detalhe: DetalheDesacordo;
}

const t = elementoEvento;

/** `xObs` as the schema takes it: Latin-1, single blanks, trimmed, at most 255 characters. */
export const observacaoDesacordo = (texto: string): string => textoFiscal(texto, OBSERVACAO_DESACORDO.max);

function detalheXml(d: DetalheDesacordo): string {
  switch (d.tpEvento) {
    case '610110':
      // descEvento in the schema's ASCII spelling, as the other events of this service are written.
      return (
        `<evPrestDesacordo>${t('descEvento', 'Prestacao do Servico em Desacordo')}${t('indDesacordoOper', '1')}` +
        `${t('xObs', observacaoDesacordo(d.xObs))}</evPrestDesacordo>`
      );
    case '610111':
      return (
        `<evCancPrestDesacordo>${t('descEvento', 'Cancelamento Prestacao do Servico em Desacordo')}` +
        `${t('nProtEvPrestDes', d.nProtEvPrestDes)}</evCancPrestDesacordo>`
      );
  }
}

/** The unsigned `eventoCTe` 4.00 of the taker and its `Id` (signed on `infEvento`, like every CT-e event). */
export const montarEventoDesacordo = ({ detalhe, ...i }: MontarEventoDesacordoInput): { id: string; xml: string } =>
  eventoCteXml({ ...i, tpEvento: detalhe.tpEvento, detalheXml: detalheXml(detalhe) });

/** Where one of the taker's events stands in the inbox aggregate. */
export interface EventoDesacordoEstado {
  event_key: string;
  tipo: TipoDesacordo;
  tp_evento: TpEventoDesacordo;
  n_seq_evento: number;
  /** The signed eventoCTe (archived): the only bytes ever sent for this key. */
  sha256: string;
  /** `cancelado`: a 610110 whose 610111 was registered. */
  situacao: 'pendente' | 'registrado' | 'rejeitado' | 'cancelado';
  observacao: string | null;
  n_prot_desacordo: string | null;
  protocolo: { numero: string; registrado_em: string; cstat: number; motivo: string } | null;
  proc_sha256: string | null;
  retorno: { cstat: number | null; motivo: string } | null;
}

/** What the rules need of the received CT-e. */
export interface CteParaDesacordo {
  chave: string | null;
  /** The taker's CNPJ/CPF as the CT-e names it (`toma3` party or `toma4`), or null. */
  tomador: string | null;
  /** The authorization's `dhRecbto`, when the received XML carries its protocol. */
  autorizado_em: string | null;
  eventos: Record<string, EventoDesacordoEstado>;
}

export type PlanoDesacordo =
  /** An event of this type is already with the authority without a verdict: reconcile it, do not send another. */
  | { tipo: 'pendente'; evento: EventoDesacordoEstado }
  | { tipo: 'novo'; tp_evento: TpEventoDesacordo; n_seq_evento: number; event_key: string; n_prot_desacordo: string | null };

const recusa = (
  code: 'regra_de_negocio' | 'desacordo_nao_tomador' | 'desacordo_fora_do_prazo' | 'desacordo_inexistente',
  cstat: keyof typeof REJEICOES_DESACORDO,
  message: string,
) => new Rejection(code, message, { cstat, motivo: REJEICOES_DESACORDO[cstat] });

/** The taker of the CT-e is the company (same CNPJ, or the same CPF written with the 000 prefix of a CPF author). */
export const ehTomador = (s: Pick<CteParaDesacordo, 'tomador'>, companyCnpj: string): boolean =>
  !!s.tomador && normalizeCnpj(s.tomador) === normalizeCnpj(companyCnpj);

/** The desacordo in force after the events so far: the last 610110 not rejected, or none. */
export function situacaoDoDesacordo(s: Pick<CteParaDesacordo, 'eventos'>): 'nenhum' | 'pendente' | 'registrado' | 'cancelado' {
  const eventos = Object.values(s.eventos).filter((e) => e.situacao !== 'rejeitado');
  if (eventos.some((e) => e.situacao === 'pendente')) return 'pendente';
  const ultimo = eventos.filter((e) => e.tipo === 'desacordo').sort((a, b) => b.n_seq_evento - a.n_seq_evento)[0];
  if (!ultimo) return 'nenhum';
  return ultimo.situacao === 'cancelado' ? 'cancelado' : 'registrado';
}

/**
 * The rules a taker's event must pass before it is built (and again when it is recorded): the company is the taker
 * (N19, 755); nothing of the other type pending; a desacordo within 45 days of the authorization (O05, 787) and not
 * while another is in force; a cancellation of a registered desacordo (O03, 866); the sequence 1–20 (O01, 636).
 */
export function planejarDesacordo(s: CteParaDesacordo, companyCnpj: string, tipo: TipoDesacordo, now: Date): PlanoDesacordo {
  if (!s.chave) throw new Rejection('nao_encontrado', "CT-e not found in this company's inbox");
  if (!ehTomador(s, companyCnpj)) {
    throw recusa(
      'desacordo_nao_tomador',
      755,
      `only the CT-e's taker may register or cancel a desacordo; the taker is ${s.tomador ?? 'not named'}, the company ${companyCnpj}`,
    );
  }
  const tp = TP_EVENTO_DESACORDO[tipo];
  const todos = Object.values(s.eventos);
  const pendente = todos.find((e) => e.situacao === 'pendente');
  if (pendente?.tipo === tipo) return { tipo: 'pendente', evento: pendente };
  if (pendente) {
    throw new Rejection(
      'desacordo_pendente',
      `the ${pendente.tipo} ${pendente.event_key} is still with the authority; repeat it to reconcile`,
      {
        event_key: pendente.event_key,
      },
    );
  }
  const emVigor = todos.find((e) => e.tipo === 'desacordo' && e.situacao === 'registrado');
  let nProt: string | null = null;
  if (tipo === 'desacordo') {
    if (emVigor) {
      throw new Rejection(
        'desacordo_ja_registrado',
        `the desacordo ${emVigor.protocolo?.numero ?? emVigor.event_key} is in force; cancel it first`,
        {
          event_key: emVigor.event_key,
        },
      );
    }
    const autorizadoEm = s.autorizado_em ? new Date(s.autorizado_em).getTime() : Number.NaN;
    if (!Number.isNaN(autorizadoEm) && now.getTime() - autorizadoEm > PRAZO_DESACORDO_DIAS * 86_400_000) {
      throw recusa(
        'desacordo_fora_do_prazo',
        787,
        `the CT-e was authorized at ${s.autorizado_em}, more than ${PRAZO_DESACORDO_DIAS} days ago`,
      );
    }
  } else {
    if (!emVigor?.protocolo) throw recusa('desacordo_inexistente', 866, 'no registered desacordo of this CT-e to cancel');
    nProt = emVigor.protocolo.numero;
  }
  const nSeq = 1 + Math.max(0, ...todos.filter((e) => e.tp_evento === tp && e.situacao !== 'rejeitado').map((e) => e.n_seq_evento));
  if (nSeq > DESACORDO_SEQ_MAXIMA) throw recusa('regra_de_negocio', 636, REJEICOES_DESACORDO[636]);
  return { tipo: 'novo', tp_evento: tp, n_seq_evento: nSeq, event_key: idEventoCte(tp, s.chave, nSeq), n_prot_desacordo: nProt };
}
