import { type Static, type TSchema } from '@sinclair/typebox';
import {
  UsuarioCriado,
  UsuarioDesativado,
  UsuarioLoginRecusado,
  UsuarioPapelAlterado,
  UsuarioSenhaAlterada,
  UsuarioSessaoAberta,
  UsuarioSessaoEncerrada,
  UsuarioTotpAtivado,
  UsuarioTotpDesativado,
} from './usuario';
import { CompanyFlagsChanged, CompanyRegistered, CredentialIssued, CredentialRevoked } from './company';
import { ConfiguracaoAtualizada } from './configuracao';
import { CertificadoEnviado, CertificadoRemovido } from './certificado';
import { NfeChaveImportada, NfeImportada, NfeReimportada, NfeRemovida } from './nfe';
import { AutorizacaoConcedida, AutorizacaoRevogada } from './autorizacao';
import {
  CteSubcontratacaoCancelado,
  CteSubcontratacaoDesacordoPendente,
  CteSubcontratacaoDesacordoRegistrado,
  CteSubcontratacaoDesacordoRejeitado,
  CteSubcontratacaoDesacordoSolicitado,
  CteSubcontratacaoRecebido,
  CteSubcontratacaoReenviado,
  CteSubcontratacaoSubstituido,
} from './cte-subcontratacao';
import {
  CteAutorizado,
  CteDenegado,
  CteEmissaoSolicitada,
  CteEmitidoRecebido,
  CteEmitidoReenviado,
  CteRascunhoAlterado,
  CteRascunhoCriado,
  CteRejeitado,
  CteRepassado,
  CteResultadoPendente,
  CteXmlAssinado,
} from './cte';
import { CteContraCteCriado } from './contra-cte';
import { SubcontratacaoLiberada, SubcontratacaoPaga, SubcontratacaoReservada } from './subcontratacao';
import {
  LoteConcluido,
  LoteCriacaoTranscrita,
  LoteCriado,
  LoteFinanceiroRegistrado,
  LoteLinhaEmitida,
  LoteLinhaProcessada,
  LoteLinhaRejeitada,
} from './lote';
import { SolicitacaoLoteAceita, SolicitacaoLoteConcluida } from './solicitacao-lote';
import { CteEventoPendente, CteEventoRegistrado, CteEventoRejeitado, CteEventoSolicitado } from './cte-eventos';
import { NumeracaoCteReservada } from './numeracao-cte';
import {
  ContaOperacionalCreditoRegistrado,
  ContaOperacionalDebitoRegistrado,
  ContaOperacionalEstornoRegistrado,
} from './conta-operacional';
import { ValePedagioCancelado, ValePedagioEmitido, ValePedagioPassagemRegistrada } from './vale-pedagio';
import {
  RepasseCancelamentoRecusado,
  RepasseCancelamentoSolicitado,
  RepasseConclusaoRegistrada,
  RepasseDocumentoCancelado,
  RepassePagamentoEnviado,
  RepassePagamentoRetirado,
  RepasseDocumentoRegistrado,
  RepassePagamentoSolicitado,
  RepasseParcelaLiberada,
  RepasseParcelaPaga,
  RepasseParcelasGeradas,
  RepassePrestacaoContasRegistrada,
  RepasseRegistroFalhou,
} from './repasse';
import { VeiculoAlterado, VeiculoCadastrado, VeiculoRemovido } from './veiculo';
import { ConviteEnviado, ConviteExpirado } from './convite';
import { MotoristaAlterado, MotoristaCadastrado, MotoristaRemovido } from './motorista';
import { RegraTributacaoAlterada, RegraTributacaoCriada, RegraTributacaoRemovida } from './regra-tributacao';
import {
  MdfeAutorizado,
  MdfeCriado,
  MdfeEmissaoSolicitada,
  MdfeEventoPendente,
  MdfeEventoRegistrado,
  MdfeEventoRejeitado,
  MdfeRejeitado,
  MdfeResultadoPendente,
  MdfeXmlAssinado,
  NumeracaoMdfeReservada,
} from './mdfe';
import {
  CiotBloqueada,
  CiotCancelada,
  CiotDeclarada,
  CiotEncerrada,
  CiotPendente,
  CiotRecusada,
  CiotRegistrada,
  CiotRetificada,
  CiotViagemIniciada,
} from './ciot';
import { ContingenciaAtivada, ContingenciaDesativada } from './contingencia';
import { DistribuicaoAlterada, DistribuicaoConsultada, DistribuicaoConsultaFalhou, DistribuicaoConsultaSolicitada } from './distribuicao';
import {
  WebhookAtualizado,
  WebhookCriado,
  WebhookDesativado,
  WebhookReativado,
  WebhookRemovido,
  WebhookSegredoRotacionado,
} from './webhook';

export * from './metadata';
export * from './recorded';
export * from './company';
export * from './configuracao';
export * from './certificado';
export * from './nfe-lida';
export * from './nfe';
export * from './autorizacao';
export * from './cte-lido';
export * from './cte-subcontratacao';
export * from './cte';
export * from './cte-eventos';
export * from './contra-cte';
export * from './subcontratacao';
export * from './lote';
export * from './solicitacao-lote';
export * from './numeracao-cte';
export * from './repasse';
export * from './veiculo';
export * from './convite';
export * from './motorista';
export * from './regra-tributacao';
export * from './mdfe';
export * from './ciot';
export * from './conta-operacional';
export * from './vale-pedagio';
export * from './contingencia';
export * from './distribuicao';
export * from './webhook';
export * from './usuario';

/**
 * The event catalogue: type name → current schema version and data schema. A type's name starts with its
 * aggregate's name, the same name its route, command, decider and projector use.
 */
export const EventCatalog = {
  'company.registered': { version: 1, schema: CompanyRegistered },
  'company.flags_changed': { version: 1, schema: CompanyFlagsChanged },
  'credential.issued': { version: 1, schema: CredentialIssued },
  'credential.revoked': { version: 1, schema: CredentialRevoked },
  'configuracao.atualizada': { version: 2, schema: ConfiguracaoAtualizada },
  'certificado.enviado': { version: 1, schema: CertificadoEnviado },
  'certificado.removido': { version: 1, schema: CertificadoRemovido },
  'nfe.importada': { version: 1, schema: NfeImportada },
  'nfe.chave_importada': { version: 1, schema: NfeChaveImportada },
  'nfe.reimportada': { version: 1, schema: NfeReimportada },
  'nfe.removida': { version: 1, schema: NfeRemovida },
  'autorizacao.concedida': { version: 1, schema: AutorizacaoConcedida },
  'autorizacao.revogada': { version: 1, schema: AutorizacaoRevogada },
  'cte_subcontratacao.recebido': { version: 1, schema: CteSubcontratacaoRecebido },
  'cte_subcontratacao.reenviado': { version: 1, schema: CteSubcontratacaoReenviado },
  'cte_subcontratacao.substituido': { version: 1, schema: CteSubcontratacaoSubstituido },
  'cte_subcontratacao.desacordo_solicitado': { version: 1, schema: CteSubcontratacaoDesacordoSolicitado },
  'cte_subcontratacao.desacordo_registrado': { version: 1, schema: CteSubcontratacaoDesacordoRegistrado },
  'cte_subcontratacao.desacordo_rejeitado': { version: 1, schema: CteSubcontratacaoDesacordoRejeitado },
  'cte_subcontratacao.desacordo_pendente': { version: 1, schema: CteSubcontratacaoDesacordoPendente },
  'cte_subcontratacao.cancelado': { version: 1, schema: CteSubcontratacaoCancelado },
  'cte.emitido_recebido': { version: 1, schema: CteEmitidoRecebido },
  'cte.emitido_reenviado': { version: 1, schema: CteEmitidoReenviado },
  'cte.repassado': { version: 1, schema: CteRepassado },
  'cte.rascunho_criado': { version: 1, schema: CteRascunhoCriado },
  'cte.rascunho_alterado': { version: 1, schema: CteRascunhoAlterado },
  'cte.emissao_solicitada': { version: 1, schema: CteEmissaoSolicitada },
  'cte.xml_assinado': { version: 1, schema: CteXmlAssinado },
  'cte.autorizado': { version: 1, schema: CteAutorizado },
  'cte.rejeitado': { version: 1, schema: CteRejeitado },
  'cte.denegado': { version: 1, schema: CteDenegado },
  'cte.resultado_pendente': { version: 1, schema: CteResultadoPendente },
  'cte.contra_cte_criado': { version: 1, schema: CteContraCteCriado },
  'subcontratacao.reservada': { version: 1, schema: SubcontratacaoReservada },
  'subcontratacao.liberada': { version: 1, schema: SubcontratacaoLiberada },
  'subcontratacao.paga': { version: 1, schema: SubcontratacaoPaga },
  'lote.criado': { version: 1, schema: LoteCriado },
  'lote.linha_processada': { version: 1, schema: LoteLinhaProcessada },
  'lote.linha_emitida': { version: 1, schema: LoteLinhaEmitida },
  'lote.linha_rejeitada': { version: 1, schema: LoteLinhaRejeitada },
  'lote.financeiro_registrado': { version: 1, schema: LoteFinanceiroRegistrado },
  'lote.concluido': { version: 1, schema: LoteConcluido },
  'lote.criacao_transcrita': { version: 1, schema: LoteCriacaoTranscrita },
  'solicitacao_lote.aceita': { version: 1, schema: SolicitacaoLoteAceita },
  'solicitacao_lote.concluida': { version: 1, schema: SolicitacaoLoteConcluida },
  'cte.evento_solicitado': { version: 1, schema: CteEventoSolicitado },
  'cte.evento_registrado': { version: 1, schema: CteEventoRegistrado },
  'cte.evento_rejeitado': { version: 1, schema: CteEventoRejeitado },
  'cte.evento_pendente': { version: 1, schema: CteEventoPendente },
  'numeracao_cte.reservada': { version: 1, schema: NumeracaoCteReservada },
  'veiculo.cadastrado': { version: 1, schema: VeiculoCadastrado },
  'veiculo.alterado': { version: 1, schema: VeiculoAlterado },
  'veiculo.removido': { version: 1, schema: VeiculoRemovido },
  'motorista.cadastrado': { version: 1, schema: MotoristaCadastrado },
  'motorista.alterado': { version: 1, schema: MotoristaAlterado },
  'motorista.removido': { version: 1, schema: MotoristaRemovido },
  'regra_tributacao.criada': { version: 1, schema: RegraTributacaoCriada },
  'regra_tributacao.alterada': { version: 1, schema: RegraTributacaoAlterada },
  'regra_tributacao.removida': { version: 1, schema: RegraTributacaoRemovida },
  'mdfe.criado': { version: 1, schema: MdfeCriado },
  'mdfe.emissao_solicitada': { version: 1, schema: MdfeEmissaoSolicitada },
  'mdfe.xml_assinado': { version: 1, schema: MdfeXmlAssinado },
  'mdfe.autorizado': { version: 1, schema: MdfeAutorizado },
  'mdfe.rejeitado': { version: 1, schema: MdfeRejeitado },
  'mdfe.resultado_pendente': { version: 1, schema: MdfeResultadoPendente },
  'mdfe.evento_pendente': { version: 1, schema: MdfeEventoPendente },
  'mdfe.evento_registrado': { version: 1, schema: MdfeEventoRegistrado },
  'mdfe.evento_rejeitado': { version: 1, schema: MdfeEventoRejeitado },
  'numeracao_mdfe.reservada': { version: 1, schema: NumeracaoMdfeReservada },
  'ciot.declarada': { version: 1, schema: CiotDeclarada },
  'ciot.bloqueada': { version: 1, schema: CiotBloqueada },
  'ciot.pendente': { version: 1, schema: CiotPendente },
  'ciot.registrada': { version: 1, schema: CiotRegistrada },
  'ciot.recusada': { version: 1, schema: CiotRecusada },
  'ciot.viagem_iniciada': { version: 1, schema: CiotViagemIniciada },
  'ciot.cancelada': { version: 1, schema: CiotCancelada },
  'ciot.retificada': { version: 1, schema: CiotRetificada },
  'ciot.encerrada': { version: 1, schema: CiotEncerrada },
  'conta_operacional.credito_registrado': { version: 1, schema: ContaOperacionalCreditoRegistrado },
  'conta_operacional.debito_registrado': { version: 1, schema: ContaOperacionalDebitoRegistrado },
  'conta_operacional.estorno_registrado': { version: 1, schema: ContaOperacionalEstornoRegistrado },
  'vale_pedagio.emitido': { version: 1, schema: ValePedagioEmitido },
  'vale_pedagio.passagem_registrada': { version: 1, schema: ValePedagioPassagemRegistrada },
  'vale_pedagio.cancelado': { version: 1, schema: ValePedagioCancelado },
  'repasse.documento_registrado': { version: 1, schema: RepasseDocumentoRegistrado },
  'repasse.registro_falhou': { version: 1, schema: RepasseRegistroFalhou },
  'repasse.parcelas_geradas': { version: 1, schema: RepasseParcelasGeradas },
  'repasse.conclusao_registrada': { version: 1, schema: RepasseConclusaoRegistrada },
  'repasse.prestacao_contas_registrada': { version: 1, schema: RepassePrestacaoContasRegistrada },
  'repasse.parcela_liberada': { version: 1, schema: RepasseParcelaLiberada },
  'repasse.pagamento_solicitado': { version: 1, schema: RepassePagamentoSolicitado },
  'repasse.parcela_paga': { version: 1, schema: RepasseParcelaPaga },
  'repasse.documento_cancelado': { version: 1, schema: RepasseDocumentoCancelado },
  'repasse.cancelamento_solicitado': { version: 1, schema: RepasseCancelamentoSolicitado },
  'repasse.cancelamento_recusado': { version: 1, schema: RepasseCancelamentoRecusado },
  'repasse.pagamento_retirado': { version: 1, schema: RepassePagamentoRetirado },
  'repasse.pagamento_enviado': { version: 1, schema: RepassePagamentoEnviado },
  'convite.enviado': { version: 1, schema: ConviteEnviado },
  'convite.expirado': { version: 1, schema: ConviteExpirado },
  'contingencia.ativada': { version: 1, schema: ContingenciaAtivada },
  'contingencia.desativada': { version: 1, schema: ContingenciaDesativada },
  'distribuicao.alterada': { version: 1, schema: DistribuicaoAlterada },
  'distribuicao.consulta_solicitada': { version: 1, schema: DistribuicaoConsultaSolicitada },
  'distribuicao.consultada': { version: 1, schema: DistribuicaoConsultada },
  'distribuicao.consulta_falhou': { version: 1, schema: DistribuicaoConsultaFalhou },
  'webhook.criado': { version: 1, schema: WebhookCriado },
  'webhook.atualizado': { version: 1, schema: WebhookAtualizado },
  'webhook.segredo_rotacionado': { version: 1, schema: WebhookSegredoRotacionado },
  'webhook.removido': { version: 1, schema: WebhookRemovido },
  'webhook.desativado': { version: 1, schema: WebhookDesativado },
  'webhook.reativado': { version: 1, schema: WebhookReativado },
  'usuario.criado': { version: 1, schema: UsuarioCriado },
  'usuario.senha_alterada': { version: 1, schema: UsuarioSenhaAlterada },
  'usuario.sessao_aberta': { version: 1, schema: UsuarioSessaoAberta },
  'usuario.sessao_encerrada': { version: 1, schema: UsuarioSessaoEncerrada },
  'usuario.login_recusado': { version: 1, schema: UsuarioLoginRecusado },
  'usuario.totp_ativado': { version: 1, schema: UsuarioTotpAtivado },
  'usuario.totp_desativado': { version: 1, schema: UsuarioTotpDesativado },
  'usuario.papel_alterado': { version: 1, schema: UsuarioPapelAlterado },
  'usuario.desativado': { version: 1, schema: UsuarioDesativado },
} as const satisfies Record<string, { version: number; schema: TSchema }>;

export type EventType = keyof typeof EventCatalog;
export type EventData<T extends EventType> = Static<(typeof EventCatalog)[T]['schema']>;

/** A domain event as deciders produce it: a type and its data, nothing of storage. */
export type DomainEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];
export type DomainEventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;

export const isEventType = (t: string): t is EventType => Object.prototype.hasOwnProperty.call(EventCatalog, t);
export * from './upcasting';
