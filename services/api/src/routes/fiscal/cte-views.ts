import { type CteLido, type Environment, type ParteLida } from '@frete/contracts';
import { reaisDeCentavos } from '@frete/domain';
import { type CteRow, type CaixaCteRow } from '@frete/projections';

function parte(p: ParteLida | null, withAddress: boolean) {
  if (!p) return null;
  const base = { documento: p.documento, tipo_documento: p.tipo_documento, nome: p.nome, ie: p.ie };
  if (!withAddress) return base;
  const e = p.endereco;
  return {
    ...base,
    endereco: e
      ? {
          logradouro: e.logradouro,
          numero: e.numero,
          complemento: e.complemento,
          bairro: e.bairro,
          codigo_ibge: e.codigo_municipio,
          municipio: e.municipio,
          uf: e.uf,
          cep: e.cep,
          pais: e.pais,
        }
      : null,
  };
}

/** The fields every CT-e record shows, read from its XML. */
export function documentView(c: CteLido, xml: { sha256: string; size_bytes: number }, withAddresses: boolean) {
  return {
    access_key: c.chave,
    model: c.modelo,
    layout_version: c.versao,
    series: c.serie,
    number: c.numero,
    issued_at: c.data_emissao,
    document_environment: c.ambiente,
    service_type: c.tipo_servico,
    cte_type: c.tipo_cte,
    modal: c.modal,
    cfop: c.cfop,
    emitente: parte(c.emitente, withAddresses)!,
    remetente: parte(c.remetente, withAddresses),
    expedidor: parte(c.expedidor, withAddresses),
    recebedor: parte(c.recebedor, withAddresses),
    destinatario: parte(c.destinatario, withAddresses),
    tomador: { papel: c.tomador.papel, codigo: c.tomador.codigo, parte: parte(c.tomador.parte, withAddresses) },
    inicio: c.inicio,
    fim: c.fim,
    service_value: reaisDeCentavos(c.valor_prestacao_centavos),
    amount_receivable: reaisDeCentavos(c.valor_receber_centavos),
    nfe_keys: c.nfe_chaves,
    protocol: c.protocolo
      ? { numero: c.protocolo.numero, recebido_em: c.protocolo.recebido_em, cstat: c.protocolo.status, motivo: c.protocolo.motivo }
      : null,
    xml,
  };
}

export function inboundView(r: CaixaCteRow, withAddresses: boolean) {
  return {
    status: r.status as 'recebido',
    carrier_role: r.carrier_role as 'terceiro',
    allows_counter_cte: r.allows_counter_cte,
    counter_cte_blocked_reason: r.counter_cte_blocked_reason as 'cte_proprio' | null,
    counter_cte_refusal: r.counter_cte_refusal as { code: 'cte_proprio'; message: string } | null,
    received_count: r.received_count,
    content_updated: r.content_updated,
    first_received_at: r.first_received_at.toISOString(),
    last_received_at: r.last_received_at.toISOString(),
    delivered_by: r.delivered_by
      ? { cnpj: r.delivered_by.cnpj, nome: r.delivered_by.nome, cte_id: r.delivered_by.cte_id, observacao: r.delivered_by.observacao }
      : null,
    origem: r.origem,
    cancelamento: r.cancelamento
      ? { protocolo: r.cancelamento.protocolo, cancelado_em: r.cancelamento.cancelado_em, xml_sha256: r.cancelamento.xml_sha256 }
      : null,
    ...documentView(r.cte, { sha256: r.xml_sha256, size_bytes: r.xml_size_bytes }, withAddresses),
  };
}

export function cteView(r: CteRow, environment: Environment, withAddresses = true) {
  return {
    id: r.cte_id,
    access_key: r.chave,
    service_type: r.service_type,
    environment,
    situacao: r.situacao,
    origem: r.origem as 'cte_emitido' | 'emissao' | 'contra_cte',
    received_count: r.received_count,
    handoffs: r.handoffs,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    rascunho: r.dados,
    contra_cte: r.contra_cte
      ? {
          chave_original: r.contra_cte.chave_original,
          contratante_cnpj: r.contra_cte.contratante_cnpj,
          modo: r.contra_cte.modo,
          tipo_servico: r.contra_cte.tipo_servico,
          lote_id: r.contra_cte.lote_id,
          documento_financeiro: r.contra_cte.documento_financeiro,
          motorista_cpf: r.contra_cte.motorista_cpf,
          placa: r.contra_cte.placa,
          valor: reaisDeCentavos(r.contra_cte.valor_centavos),
        }
      : null,
    correcoes_em_vigor: r.correcoes_em_vigor ?? [],
    documento:
      r.cte && r.xml_sha256 ? documentView(r.cte, { sha256: r.xml_sha256, size_bytes: r.xml_size_bytes ?? 0 }, withAddresses) : null,
  };
}
