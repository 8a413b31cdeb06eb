import {
  type CteDraftInput,
  type CteEnderecoParte,
  type CteParteRascunho,
  type CteRascunho,
  type FieldError,
  type Local,
} from '@frete/contracts';
import { findMunicipio } from '../ibge/municipios';
import { centavosDeReais } from '../money/money';
import { isValidAccessKey } from '../fiscal/access-key';
import { isValidCnpj, isValidCpf, normalizeCnpj, normalizeCpf } from '../fiscal/documents';
import { excerpt } from '../xml/excerpt';

export interface RascunhoValidado<T extends CteRascunho = CteRascunho> {
  dados: T;
  fields: FieldError[];
}

const PARTES = ['remetente', 'expedidor', 'recebedor', 'destinatario'] as const;

/** A CPF (11 digits) or a CNPJ (14 characters, possibly alphanumeric), normalized; null when neither is valid. */
export function documentoValido(raw: string): string | null {
  const cnpj = normalizeCnpj(raw);
  if (cnpj.length === 14 && isValidCnpj(cnpj)) return cnpj;
  const cpf = normalizeCpf(raw);
  if (/^[0-9]{11}$/.test(cpf) && isValidCpf(cpf)) return cpf;
  return null;
}

/**
 * Checks what the schema cannot (check digits, IBGE pairs, keys of the right model, vRec ≤ vTPrest) and returns
 * the data normalized: documents without mask, municipalities with the IBGE table's name and code. Completeness
 * is not judged here: a draft may lack whole groups, and the preview lists them.
 */
export function validarRascunho(input: CteDraftInput): RascunhoValidado<CteDraftInput>;
export function validarRascunho(input: CteRascunho): RascunhoValidado;
export function validarRascunho(input: CteRascunho): RascunhoValidado {
  const fields: FieldError[] = [];
  const dados: CteRascunho = structuredClone(input);

  const local = (path: string, l: Local | undefined): Local | undefined => {
    if (!l) return l;
    const found = findMunicipio(l.municipio, l.uf, l.codigo_ibge);
    if (!found) {
      fields.push({
        field: `${path}.municipio`,
        message: `'${l.municipio}'/${l.uf} is not an IBGE municipality${l.codigo_ibge ? ` with code ${l.codigo_ibge}` : ''}`,
      });
      return l;
    }
    return { municipio: found.municipio, uf: l.uf, codigo_ibge: found.codigo_ibge };
  };
  const endereco = (path: string, e: CteEnderecoParte): CteEnderecoParte => {
    const l = local(path, { municipio: e.municipio, uf: e.uf, codigo_ibge: e.codigo_ibge });
    return { ...e, municipio: l!.municipio, codigo_ibge: l!.codigo_ibge };
  };
  const parte = (path: string, p: CteParteRascunho): CteParteRascunho => {
    const documento = documentoValido(p.documento);
    if (!documento) fields.push({ field: `${path}.documento`, message: 'not a valid CNPJ or CPF (check digits)' });
    return { ...p, documento: documento ?? p.documento, endereco: endereco(`${path}.endereco`, p.endereco) };
  };

  if (dados.inicio) dados.inicio = local('inicio', dados.inicio);
  if (dados.fim) dados.fim = local('fim', dados.fim);
  for (const papel of PARTES) {
    const p = dados[papel];
    if (p) dados[papel] = parte(papel, p);
  }
  if (dados.tomador?.papel === 'outros') dados.tomador = { papel: 'outros', parte: parte('tomador.parte', dados.tomador.parte) };

  const v = dados.valores;
  if (v?.a_receber !== undefined && centavosDeReais(v.a_receber) > centavosDeReais(v.total)) {
    fields.push({ field: 'valores.a_receber', message: 'must not exceed `total` (vRec ≤ vTPrest)' });
  }
  const ibsCbs = dados.impostos?.ibs_cbs;
  if (ibsCbs) {
    for (const k of ['aliquota_ibs_uf', 'aliquota_ibs_mun', 'aliquota_cbs'] as const) {
      const x = ibsCbs[k] * 10_000;
      if (Math.abs(x - Math.round(x)) > 1e-6)
        fields.push({ field: `impostos.ibs_cbs.${k}`, message: 'at most 4 decimals (layout TDec_0302_04RTC)' });
    }
  }
  const docs = dados.documentos;
  // infNFe, infNF and infOutros are a choice in the schema's infDoc: one kind of document per CT-e.
  if (docs?.nfe?.length && docs.outros?.length) {
    fields.push({
      field: 'documentos',
      message: 'NF-e keys (infNFe) and other documents (infOutros) cannot be mixed: the schema makes infDoc one or the other',
    });
  }
  docs?.outros?.forEach((d, i) => {
    if (d.tipo_documento === '99' && !d.descricao?.trim()) {
      fields.push({
        field: `documentos.outros.${i}.descricao`,
        message: "tipo_documento '99' (outros) needs the description (descOutros)",
      });
    }
  });
  docs?.nfe?.forEach((n, i) => {
    if (!isValidAccessKey(n.chave) || n.chave.slice(20, 22) !== '55') {
      fields.push({ field: `documentos.nfe.${i}.chave`, message: 'not an NF-e access key (model 55, valid check digit)' });
    }
  });
  dados.documentos_anteriores?.forEach((d, i) => {
    const cnpj = normalizeCnpj(d.emitente.cnpj);
    if (!isValidCnpj(cnpj)) fields.push({ field: `documentos_anteriores.${i}.emitente.cnpj`, message: 'not a valid CNPJ' });
    d.emitente.cnpj = cnpj;
    d.chaves_cte.forEach((k, j) => {
      if (!isValidAccessKey(k) || k.slice(20, 22) !== '57') {
        fields.push({
          field: `documentos_anteriores.${i}.chaves_cte.${j}`,
          message: 'not a CT-e access key (model 57, valid check digit)',
        });
      }
    });
  });
  if (dados.autorizados_xml) dados.autorizados_xml = autorizadosXml(dados.autorizados_xml, fields);
  // Plain JSON, as it will be stored and read back: no `undefined` members.
  return { dados: JSON.parse(JSON.stringify(dados)) as CteRascunho, fields };
}

/** autXML's limit in CT-e 4.00 (cteTiposBasico_v4.00.xsd: `autXML` minOccurs 0, maxOccurs 10). */
export const MAX_AUTORIZADOS_XML = 10;

/**
 * `autorizados_xml` normalized (no mask). Each entry must be a CNPJ or CPF by its check digits (MOC CT-e 4.00 Anexo I,
 * G193/699 and G194/700); the same document twice, masked or not, is refused rather than collapsed, because the
 * authority rejects it (G195/715, "Documento autorizado ao XML duplicado no CTe") and the list is what the draft shows
 * and the XML carries, one for one.
 */
function autorizadosXml(lista: string[], fields: FieldError[]): string[] {
  if (lista.length > MAX_AUTORIZADOS_XML) {
    fields.push({ field: 'autorizados_xml', message: `at most ${MAX_AUTORIZADOS_XML} documents (autXML), not ${lista.length}` });
  }
  const vistos = new Map<string, number>();
  return lista.map((raw, i) => {
    const documento = documentoValido(raw);
    if (!documento) {
      fields.push({ field: `autorizados_xml.${i}`, message: `'${excerpt(raw)}' is not a valid CNPJ or CPF (check digits)` });
      return raw;
    }
    const anterior = vistos.get(documento);
    if (anterior !== undefined) {
      fields.push({ field: `autorizados_xml.${i}`, message: `repeats autorizados_xml.${anterior} (${documento})` });
    } else vistos.set(documento, i);
    return documento;
  });
}
