import { type ModeloFiscal } from './port';

/**
 * Status codes (`cStat`) and their texts (`xMotivo`) as the manuals list them: MOC CT-e 4.00 (Anexo I and Visão
 * Geral, tables of "Códigos de Mensagens") and MOC MDF-e 3.00. The simulated authority answers only with these, and
 * `SIMULAR:REJEICAO:<cStat>` accepts only the rejections listed here.
 */

const CTE: Record<number, string> = {
  100: 'Autorizado o uso do CT-e',
  101: 'Cancelamento de CT-e homologado',
  105: 'Lote em processamento',
  107: 'Serviço em Operação',
  108: 'Serviço Paralisado Momentaneamente (curto prazo)',
  109: 'Serviço Paralisado sem Previsão',
  110: 'Uso Denegado',
  135: 'Evento registrado e vinculado a CT-e',
  136: 'Evento registrado, mas não vinculado a CT-e',
  203: 'Rejeição: Emissor não habilitado para emissão do CT-e',
  204: 'Rejeição: Duplicidade de CT-e',
  205: 'Rejeição: CT-e está denegado na base de dados da SEFAZ',
  206: 'Rejeição: Número de CT-e já está inutilizado na Base de dados da SEFAZ',
  207: 'Rejeição: CNPJ do emitente inválido',
  209: 'Rejeição: IE do emitente inválida',
  212: 'Rejeição: Data de emissão CT-e posterior a data de recebimento',
  213: 'Rejeição: CNPJ-Base do Emitente difere do CNPJ-Base do Certificado Digital',
  215: 'Rejeição: Falha no schema XML',
  217: 'Rejeição: CT-e não consta na base de dados da SEFAZ',
  218: 'Rejeição: CT-e já está cancelado na base de dados da SEFAZ',
  219: 'Rejeição: Circulação do CT-e verificada',
  220: 'Rejeição: CT-e autorizado há mais de 7 dias (168 horas)',
  222: 'Rejeição: Protocolo de Autorização de Uso difere do cadastrado',
  225: 'Rejeição: Falha no Schema XML do CT-e',
  226: 'Rejeição: Código da UF do Emitente diverge da UF autorizadora',
  227: 'Rejeição: Erro na composição do Campo ID',
  228: 'Rejeição: Data de Emissão muito atrasada',
  229: 'Rejeição: IE do emitente não informada',
  230: 'Rejeição: IE do emitente não cadastrada',
  231: 'Rejeição: IE do emitente não vinculada ao CNPJ',
  236: 'Rejeição: Chave de Acesso com dígito verificador inválido',
  240: 'Rejeição: Cancelamento/Inutilização - Irregularidade Fiscal do Emitente',
  243: 'Rejeição: XML Mal Formado',
  245: 'Rejeição: CNPJ Emitente não cadastrado',
  247: 'Rejeição: Sigla da UF do Emitente diverge da UF autorizadora',
  252: 'Rejeição: Ambiente informado diverge do Ambiente de recebimento',
  253: 'Rejeição: Dígito Verificador da chave de acesso composta inválido',
  290: 'Rejeição: Certificado Assinatura inválido',
  291: 'Rejeição: Certificado Assinatura Data Validade',
  292: 'Rejeição: Certificado Assinatura sem CNPJ',
  293: 'Rejeição: Certificado Assinatura - erro Cadeia de Certificação',
  294: 'Rejeição: Certificado Assinatura revogado',
  297: 'Rejeição: Assinatura difere do calculado',
  298: 'Rejeição: Assinatura difere do padrão do Projeto',
  301: 'Uso Denegado: Irregularidade fiscal do emitente',
  302: 'Uso Denegado: Irregularidade fiscal do remetente',
  303: 'Uso Denegado: Irregularidade fiscal do destinatário',
  304: 'Uso Denegado: Irregularidade fiscal do expedidor',
  305: 'Uso Denegado: Irregularidade fiscal do recebedor',
  306: 'Uso Denegado: Irregularidade fiscal do tomador',
  469: 'Rejeição: Remetente deve ser informado para tipo de serviço diferente de redespacho intermediário ou Serviço vinculado a multimodal',
  470: 'Rejeição: Destinatário deve ser informado para tipo de serviço diferente de redespacho intermediário ou serviço vinculado a multimodal',
  474: 'Rejeição: Expedidor deve ser informado para tipo de serviço de redespacho intermediário e serviço vinculado a multimodal',
  475: 'Rejeição: Recebedor deve ser informado para tipo de serviço de redespacho intermediário e serviço vinculado a multimodal',
  519: 'Rejeição: CFOP inválido para operação',
  521: 'Rejeição: Os documentos de transporte anterior devem ser informados para os tipos de serviço Subcontratação, Redespacho e Redespacho Intermediário',
  523: 'Rejeição: Vedado cancelamento quando existir evento Carta de Correção',
  524: 'Rejeição: CFOP inválido, informar 5932 ou 6932',
  527: 'Rejeição: NF-e duplicada no CT-e',
  543: 'Rejeição: Chave de CTe duplicada em documentos anteriores',
  // The manual's text, typo included.
  528: 'Rejeição: Vedado cancelamento se exitir MDF-e autorizado para o CT-e',
  531: 'Rejeição: Valor a receber deve ser menor ou igual Valor da Prestação',
  539: 'Rejeição: Duplicidade de CT-e, com diferença na Chave de Acesso',
  574: 'Rejeição: Vedado o cancelamento de CT-e do tipo substituição (tipo=3)',
  576: 'Rejeição: Vedado o cancelamento se possuir CT-e de Substituição associado',
  580: 'Rejeição: Falha no Schema XML específico para o modal',
  627: 'Rejeição: CNPJ do autor do evento inválido',
  628: 'Rejeição: Erro Atributo ID do evento não corresponde a concatenação dos campos (“ID” + tpEvento + chCTe + nSeqEvento)',
  629: 'Rejeição: O tpEvento informado inválido',
  630: 'Rejeição: Falha no Schema XML específico para o evento',
  631: 'Rejeição: Duplicidade de evento',
  632: 'Rejeição: O autor do evento diverge do emissor do CT-e',
  634: 'Rejeição: A data do evento não pode ser menor que a data de emissão do CT-e',
  635: 'Rejeição: A data do evento não pode ser maior que a data do processamento',
  636: 'Rejeição: O número sequencial do evento é maior que o permitido',
  637: 'Rejeição: A data do evento não pode ser menor que a data de autorização do CT-e',
  650: 'Rejeição: Valor total do serviço superior ao limite permitido (R$ 9.999.999,99)',
  656: 'Rejeição: Consumo Indevido (Deve ser aguardado 1 hora para efetuar nova solicitação)',
  660: 'Rejeição: Vedado o cancelamento se possuir CT-e Complementar associado',
  675: 'Rejeição: Valor do imposto não corresponde à base de cálculo X alíquota',
  676: 'Rejeição: CFOP informado inválido',
  677: 'Rejeição: Órgão de recepção do evento inválido',
  678: 'Rejeição: Consumo Indevido',
  664: 'Rejeição: Evento não permitido para CT-e Substituído',
  681: 'Rejeição: Informação não pode ser alterada por carta de correção',
  732: 'Rejeição: Chave de acesso inválida (modelo diferente de 57)',
  733: 'Rejeição: CNPJ do documento anterior deve ser o mesmo indicado no grupo emiDocAnt',
  745: 'Rejeição: CNPJ base do tomador deve ser igual ao CNPJ base indicado no grupo emiDocAnt',
  746: 'Rejeição: Tipo de Serviço inválido para o tomador informado',
  747: 'Rejeição: Documentos anteriores informados para Tipo de Serviço Normal',
  755: 'Rejeição: Autor do evento prestação do serviço em desacordo deve ser o tomador do serviço do CT-e',
  787: 'Rejeição: Data do evento de Prestação do Serviço em desacordo deve ocorrer em até 45 dias da autorização do CT-e',
  832: 'Rejeição: Município de início e fim de prestação do CT-e de subcontratação devem ser iguais ao CT-e subcontratado',
  844: 'Rejeição: Chave de acesso do CTe anterior inválida',
  862: 'Rejeição: Vedado o cancelamento quando houver evento de Comprovante de Entrega associado',
  864: 'Rejeição: NF-e não possui relação com este CT-e',
  865: 'Rejeição: Comprovante de entrega deve relacionar NF-e para CT-e de tipo de serviço Normal',
  866: 'Rejeição: Protocolo do evento a ser cancelado não existe, não está associado ao CT-e ou já está cancelado',
  870: 'Rejeição: Não é permitido mais de um comprovante de entrega para CT-e (exceto CT-e Globalizado)',
  871: 'Rejeição: Comprovante de entrega não pode informar NF-e para CT-e de tipo de serviço diferente de Normal',
  872: 'Rejeição: Data e hora da entrega inválida',
  999: 'Rejeição: Erro não catalogado',
};

const MDFE: Record<number, string> = {
  100: 'Autorizado o uso do MDF-e',
  101: 'Cancelamento de MDF-e homologado',
  105: 'Arquivo em processamento',
  107: 'Serviço em Operação',
  108: 'Serviço Paralisado Momentaneamente (curto prazo)',
  109: 'Serviço Paralisado sem Previsão',
  111: 'Consulta não encerrados localizou MDF-e nessa situação',
  112: 'Consulta não encerrados não localizou MDF-e nessa situação',
  132: 'Encerramento de MDF-e homologado',
  135: 'Evento registrado e vinculado a MDF-e',
  136: 'Evento registrado, mas não vinculado a MDF-e',
  203: 'Rejeição: Emissor não habilitado para emissão do MDF-e',
  204: 'Rejeição: Duplicidade de MDF-e',
  207: 'Rejeição: CNPJ do emitente inválido',
  209: 'Rejeição: IE do emitente inválida',
  212: 'Rejeição: Data/hora de emissão MDF-e posterior a data/hora de recebimento',
  213: 'Rejeição: CNPJ-Base do Emitente difere do CNPJ-Base do Certificado Digital',
  215: 'Rejeição: Falha no schema XML',
  217: 'Rejeição: MDF-e não consta na base de dados da SEFAZ',
  218: 'Rejeição: MDF-e já está cancelado na base de dados da SEFAZ',
  219: 'Rejeição: Circulação do MDF-e verificada',
  220: 'Rejeição: MDF-e autorizado há mais de 24 horas',
  222: 'Rejeição: Protocolo de Autorização de Uso difere do cadastrado',
  225: 'Rejeição: Falha no Schema XML do MDF-e',
  226: 'Rejeição: Código da UF do Emitente diverge da UF autorizadora',
  227: 'Rejeição: Erro na composição do Campo ID',
  228: 'Rejeição: Data de emissão muito atrasada',
  236: 'Rejeição: Chave de Acesso inválida',
  243: 'Rejeição: XML Mal Formado',
  247: 'Rejeição: Sigla da UF do Emitente diverge da UF autorizadora',
  252: 'Rejeição: Ambiente informado diverge do Ambiente de recebimento',
  // The manual's spelling ("Digito").
  253: 'Rejeição: Digito Verificador da chave de acesso composta inválido',
  290: 'Rejeição: Certificado Assinatura inválido',
  291: 'Rejeição: Certificado Assinatura Data Validade',
  292: 'Rejeição: Certificado Assinatura sem CNPJ / CPF',
  293: 'Rejeição: Certificado Assinatura - erro Cadeia de Certificação',
  294: 'Rejeição: Certificado Assinatura revogado',
  297: 'Rejeição: Assinatura difere do calculado',
  298: 'Rejeição: Assinatura difere do padrão do Projeto',
  539: 'Rejeição: Duplicidade de MDF-e, com diferença na Chave de Acesso',
  577: 'Rejeição: Duplicidade de condutor',
  580: 'Rejeição: Falha no Schema XML específico para o modal',
  609: 'Rejeição: MDF-e já está encerrado na base de dados da SEFAZ',
  611: 'Rejeição: Existe MDF-e não encerrado para esta placa, tipo de emitente e UF descarregamento',
  615: 'Rejeição: Data de encerramento anterior à data de autorização do MDF-e',
  627: 'Rejeição: CNPJ do autor do evento inválido',
  628: 'Rejeição: Erro Atributo ID do evento não corresponde à concatenação dos campos (“ID” + tpEvento + chMDFe + nSeqEvento)',
  629: 'Rejeição: O tpEvento informado inválido',
  630: 'Rejeição: Falha no Schema XML específico para o evento',
  631: 'Rejeição: Duplicidade de evento',
  632: 'Rejeição: O autor do evento diverge do emissor do MDF-e',
  636: 'Rejeição: O número sequencial do evento é maior que o permitido',
  645: 'Rejeição: CPF do condutor inválido',
  656: 'Rejeição: Consumo Indevido (Deve ser aguardado 1 hora para efetuar nova solicitação)',
  662: 'Rejeição: Existe MDF-e não encerrado para esta placa, tipo de emitente no sentido oposto da viagem',
  671: 'Rejeição: CT-e informado não existe na base de dados da SEFAZ',
  678: 'Rejeição: Uso Indevido',
  686: 'Rejeição: Existe MDF-e não encerrado há mais de 30 dias para o emitente',
  999: 'Rejeição: Erro não catalogado',
};

const TABELAS: Record<ModeloFiscal, Record<number, string>> = { cte: CTE, mdfe: MDFE };

/** `xMotivo` never exceeds 255 characters (`TMotivo`). */
const MAX_MOTIVO = 255;

/** The manual's text of `cStat`, with `detalhe` appended (`[nProt:…]`, the schema error…) and cut to 255 characters. */
export function xMotivoDe(modelo: ModeloFiscal, cStat: number, detalhe?: string): string {
  const texto = TABELAS[modelo][cStat];
  if (texto === undefined) throw new Error(`no text for cStat ${cStat} (${modelo})`);
  const completo = detalhe ? `${texto} ${detalhe}` : texto;
  return completo.length <= MAX_MOTIVO ? completo : `${completo.slice(0, MAX_MOTIVO - 1)}…`;
}

export const cStatConhecido = (modelo: ModeloFiscal, cStat: number): boolean => TABELAS[modelo][cStat] !== undefined;

/**
 * The codes `SIMULAR:REJEICAO:<cStat>` may ask for: every rejection of the table except those whose answer carries
 * data of an existing document or event (204, 539, 631), which the simulated authority produces only from its state.
 */
export function rejeicaoSimulavel(modelo: ModeloFiscal, cStat: number): boolean {
  if (!cStatConhecido(modelo, cStat) || cStat < 200) return false;
  if (cStat >= 301 && cStat <= 306) return false;
  return ![204, 539, 631].includes(cStat) && !cStatDoCanal(cStat);
}

/**
 * "Consumo indevido" as the authorizers' services answer it, per model: 678 for both.
 * CT-e: MOC CT-e 4.00 Visão Geral §8 "Uso Indevido" ("As novas tentativas serão rejeitadas com o erro
 * 678–Rejeição: Consumo Indevido") and §8.2, rules CI01–CI04 (autorização, consulta protocolo, eventos, any web
 * service: 678, for up to an hour). No 656 appears in the CT-e 4.00 manual.
 * MDF-e: 678 "Rejeição: Uso Indevido" (MOC MDF-e 3.00a "disciplina as regras para Uso Indevido"; the text of 678 as
 * a vendor's rejection catalogue gives it, ajuda.invoisys.com.br/678 "678 Rejeição: Uso Indevido (MDF-e)"); the
 * MDF-e manual's own table was not available here.
 * 656 is the national distribution's (CT-e/NF-e `DistribuicaoDFe`: facts file "Distribution"; nfephp-org/sped-cte
 * issue #192) and NF-e's (NT 2018.002): the doubles never answer it for CT-e or MDF-e authorizer services.
 */
export const CSTAT_CONSUMO_INDEVIDO: Readonly<Record<ModeloFiscal, 678>> = { cte: 678, mdfe: 678 };
/** The national distribution's "consumo indevido" (CTeDistribuicaoDFe): block for an hour, restarted by a new call. */
export const CSTAT_CONSUMO_INDEVIDO_DISTRIBUICAO = 656;

/**
 * Statuses about the channel, not the document (facts file, "Transport"): 108/109 paralysed, 678 consumo indevido
 * (`CSTAT_CONSUMO_INDEVIDO`), and 656 read the same way should an authorizer answer with the distribution's code.
 * They never become a document's rejection: the call is tried again later.
 */
export const CSTAT_CANAL = [108, 109, 656, 678] as const;
export const cStatDoCanal = (cStat: number): boolean => (CSTAT_CANAL as readonly number[]).includes(cStat);

/** Codes of use denied (CT-e only: MDF-e has no denial). */
export const DENEGACOES_CTE = [301, 302, 303, 304, 305, 306] as const;
