import { type Endereco, type MdfeDados, type PagamentoMdfe, type VeiculoMdfe } from '@frete/contracts';
import { QRCODE_MDFE } from '../../fiscal/autorizadores';
import { ufBySigla } from '../../fiscal/ufs';
import { findMunicipio, municipioByCode } from '../../ibge/municipios';
import { chaveDeAcesso } from '../../cte/xml/chave';
import { textoFiscal, VER_PROC } from '../../cte/xml/montar';
import { decimalDeCentavos } from '../../money/money';
import { textoKgDeGramas } from '../../money/peso';
import { totaisMdfe } from '../totais';

/**
 * The MDF-e 3.00 XML (model 58, road modal) of a manifest (layout: mdfe_v3.00.xsd / mdfeTiposBasico_v3.00.xsd, modal
 * mdfeModalRodoviario_v3.00.xsd; structure of test/fixtures/mdfe). Pure: the emitter, series, number, cMDF, issue
 * time and environment are passed in. Compact and unsigned: the caller signs `infMDFe`.
 *
 * `tpEmit` 1 (prestador de serviço de transporte): the carrier manifests its own CT-e (MOC MDF-e: tpEmit 2 is for
 * goods carried by their owner, with NF-e). The unloading groups (`infMunDescarga`) gather the CT-e by unloading
 * municipality; `tot` sums the CT-e's cargo value and gross weight in kg (`cUnid` 01).
 */

export type AmbienteMdfe = 'homologacao' | 'producao';

export interface EmitenteMdfe {
  cnpj: string;
  razao_social: string;
  inscricao_estadual: string;
  endereco: Endereco;
  rntrc: string | null;
}

export interface MontarMdfeInput {
  dados: MdfeDados;
  emitente: EmitenteMdfe;
  serie: number;
  numero: number;
  cMDF: string;
  /** `AAAA-MM-DDThh:mm:ss-03:00` (ruling 11). */
  dhEmi: string;
  ambiente: AmbienteMdfe;
  verProc?: string;
}

export const MDFE_NS = 'http://www.portalfiscal.inf.br/mdfe';

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const t = (value: string, max: number) => escapeXml(textoFiscal(value, max));
const el = (name: string, value: string | number | null | undefined): string =>
  value === null || value === undefined || value === '' ? '' : `<${name}>${value}</${name}>`;

/** The QR code text of an MDF-e (`infMDFeSupl/qrCodMDFe`): SVRS's portal, which serves every state (QRCODE_MDFE). */
export const qrCodeMdfe = (chave: string, ambiente: AmbienteMdfe): string =>
  `${QRCODE_MDFE[ambiente]}?chMDFe=${chave}&tpAmb=${ambiente === 'producao' ? 1 : 2}`;

const nomeMunicipio = (codigo: string, fallback: string) => t(municipioByCode(codigo)?.municipio ?? fallback, 60);

function veiculo(v: VeiculoMdfe, reboque: boolean, condutores: string): string {
  return (
    el('placa', v.placa) +
    el('RENAVAM', v.renavam) +
    el('tara', v.tara_kg) +
    (reboque ? el('capKG', v.capacidade_kg ?? 0) : el('capKG', v.capacidade_kg)) +
    el('capM3', v.capacidade_m3) +
    condutores +
    (reboque ? '' : el('tpRod', v.tipo_rodado ?? '06')) +
    el('tpCar', v.tipo_carroceria) +
    el('UF', v.uf)
  );
}

const cpfOuCnpj = (documento: string) => (documento.length === 11 ? `<CPF>${documento}</CPF>` : `<CNPJ>${documento}</CNPJ>`);

/** `infBanc`: bank and branch, an IPEF's CNPJ or a PIX key. */
function infBanc(b: PagamentoMdfe['banco']): string {
  if ('pix' in b) return `<infBanc><PIX>${escapeXml(b.pix)}</PIX></infBanc>`;
  if ('cnpj_ipef' in b) return `<infBanc><CNPJIPEF>${b.cnpj_ipef}</CNPJIPEF></infBanc>`;
  return `<infBanc><codBanco>${b.codigo_banco}</codBanco><codAgencia>${escapeXml(b.codigo_agencia)}</codAgencia></infBanc>`;
}

/** `infPag` (mdfeModalRodoviario_v3.00.xsd order): who pays, the components, the contract, à vista or a prazo, the bank. */
const infPag = (p: PagamentoMdfe): string =>
  '<infPag>' +
  (p.responsavel.nome ? `<xNome>${t(p.responsavel.nome, 60)}</xNome>` : '') +
  cpfOuCnpj(p.responsavel.documento) +
  p.componentes
    .map(
      (c) =>
        `<Comp><tpComp>${c.tipo}</tpComp><vComp>${decimalDeCentavos(c.valor_centavos)}</vComp>${c.descricao ? `<xComp>${t(c.descricao, 60)}</xComp>` : ''}</Comp>`,
    )
    .join('') +
  `<vContrato>${decimalDeCentavos(p.valor_contrato_centavos)}</vContrato><indPag>${p.indicador_pagamento}</indPag>` +
  (p.valor_adiantamento_centavos === null ? '' : `<vAdiant>${decimalDeCentavos(p.valor_adiantamento_centavos)}</vAdiant>`) +
  p.parcelas
    .map(
      (x, i) =>
        `<infPrazo><nParcela>${String(i + 1).padStart(3, '0')}</nParcela><dVenc>${x.vencimento}</dVenc><vParcela>${decimalDeCentavos(x.valor_centavos)}</vParcela></infPrazo>`,
    )
    .join('') +
  infBanc(p.banco) +
  '</infPag>';

/**
 * `rodo/infANTT`: the emitter's RNTRC, the CIOT (`infCIOT`) and the contract's payment (`infPag`), which NT 2025.001
 * v1.03 requires of a carga lotação (F55b/302) and of a TAC or equiparado (F113a/303, F113b/304).
 */
function infAntt(rntrc: string | null, dados: MdfeDados): string {
  const conteudo =
    (rntrc ? `<RNTRC>${rntrc}</RNTRC>` : '') +
    (dados.ciot ?? []).map((c) => `<infCIOT><CIOT>${c.codigo}</CIOT>${cpfOuCnpj(c.responsavel)}</infCIOT>`).join('') +
    (dados.pagamentos ?? []).map(infPag).join('');
  return conteudo ? `<infANTT>${conteudo}</infANTT>` : '';
}

export function montarMdfeXml(i: MontarMdfeInput): { chave: string; xml: string } {
  const { dados, emitente } = i;
  const uf = ufBySigla(emitente.endereco.uf);
  if (!uf) throw new Error(`the emitter's UF ${emitente.endereco.uf} is unknown`);
  const cnpj = emitente.cnpj;
  const aamm = i.dhEmi.slice(2, 4) + i.dhEmi.slice(5, 7);
  const chave = chaveDeAcesso({ cUF: uf.codigo_ibge, aamm, cnpj, modelo: '58', serie: i.serie, numero: i.numero, tpEmis: 1, cCT: i.cMDF });
  const tpAmb = i.ambiente === 'producao' ? 1 : 2;
  const end = emitente.endereco;
  const cMunEmit = end.codigo_ibge ?? findMunicipio(end.municipio, end.uf)?.codigo_ibge ?? '';

  const ide =
    `<ide><cUF>${uf.codigo_ibge}</cUF><tpAmb>${tpAmb}</tpAmb><tpEmit>1</tpEmit><mod>58</mod><serie>${i.serie}</serie><nMDF>${i.numero}</nMDF>` +
    `<cMDF>${i.cMDF}</cMDF><cDV>${chave.slice(43)}</cDV><modal>1</modal><dhEmi>${i.dhEmi}</dhEmi><tpEmis>1</tpEmis><procEmi>0</procEmi>` +
    `<verProc>${t(i.verProc ?? VER_PROC, 20)}</verProc><UFIni>${dados.uf_inicio}</UFIni><UFFim>${dados.uf_fim}</UFFim>` +
    dados.carregamento
      .map(
        (m) =>
          `<infMunCarrega><cMunCarrega>${m.codigo_ibge}</cMunCarrega><xMunCarrega>${nomeMunicipio(m.codigo_ibge, m.municipio)}</xMunCarrega></infMunCarrega>`,
      )
      .join('') +
    dados.percurso.map((u) => `<infPercurso><UFPer>${u}</UFPer></infPercurso>`).join('') +
    '</ide>';

  const emit =
    `<emit>${cnpj.length === 11 ? el('CPF', cnpj) : el('CNPJ', cnpj)}${el('IE', emitente.inscricao_estadual)}<xNome>${t(emitente.razao_social, 60)}</xNome>` +
    `<enderEmit><xLgr>${t(end.logradouro, 60)}</xLgr><nro>${t(end.numero, 60)}</nro>${end.complemento ? el('xCpl', t(end.complemento, 60)) : ''}` +
    `<xBairro>${t(end.bairro, 60)}</xBairro><cMun>${cMunEmit}</cMun><xMun>${nomeMunicipio(cMunEmit, end.municipio)}</xMun>` +
    `${el('CEP', end.cep?.replace(/\D/g, ''))}<UF>${end.uf}</UF></enderEmit></emit>`;

  const condutores = dados.motoristas.map((m) => `<condutor><xNome>${t(m.nome, 60)}</xNome><CPF>${m.cpf}</CPF></condutor>`).join('');
  const rodo =
    '<infModal versaoModal="3.00"><rodo>' +
    infAntt(emitente.rntrc, dados) +
    `<veicTracao>${veiculo(dados.veiculo, false, condutores)}</veicTracao>` +
    dados.reboques.map((r) => `<veicReboque>${veiculo(r, true, '')}</veicReboque>`).join('') +
    '</rodo></infModal>';

  const descargas = new Map<string, { nome: string; chaves: string[] }>();
  for (const c of dados.ctes) {
    const g = descargas.get(c.descarga.codigo_ibge) ?? { nome: nomeMunicipio(c.descarga.codigo_ibge, c.descarga.municipio), chaves: [] };
    g.chaves.push(c.chave);
    descargas.set(c.descarga.codigo_ibge, g);
  }
  const infDoc =
    '<infDoc>' +
    [...descargas]
      .map(
        ([codigo, g]) =>
          `<infMunDescarga><cMunDescarga>${codigo}</cMunDescarga><xMunDescarga>${g.nome}</xMunDescarga>` +
          g.chaves.map((k) => `<infCTe><chCTe>${k}</chCTe></infCTe>`).join('') +
          '</infMunDescarga>',
      )
      .join('') +
    '</infDoc>';

  const p = dados.produto_predominante;
  // mdfeTiposBasico_v3.00.xsd: prodPred between seg and tot; NCM required of a carga lotação (NT 2025.001 v1.03, F55a/301).
  const prodPred = p
    ? `<prodPred><tpCarga>${p.tipo_carga}</tpCarga><xProd>${t(p.descricao, 120)}</xProd>${el('NCM', p.ncm)}</prodPred>`
    : '';
  const totais = totaisMdfe(dados.ctes);
  const tot =
    `<tot><qCTe>${totais.qtd_cte}</qCTe><vCarga>${decimalDeCentavos(totais.valor_carga_centavos)}</vCarga><cUnid>01</cUnid>` +
    `<qCarga>${textoKgDeGramas(totais.peso_gramas)}</qCarga></tot>`;
  const obs = dados.observacoes ? textoFiscal(dados.observacoes, 5000) : '';
  const infAdic = obs ? `<infAdic><infCpl>${escapeXml(obs)}</infCpl></infAdic>` : '';

  const xml =
    `<?xml version="1.0" encoding="UTF-8"?><MDFe xmlns="${MDFE_NS}"><infMDFe Id="MDFe${chave}" versao="3.00">` +
    ide +
    emit +
    rodo +
    infDoc +
    prodPred +
    tot +
    infAdic +
    `</infMDFe><infMDFeSupl><qrCodMDFe>${escapeXml(qrCodeMdfe(chave, i.ambiente))}</qrCodMDFe></infMDFeSupl></MDFe>`;
  return { chave, xml };
}
