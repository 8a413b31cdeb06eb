import { type Pool } from 'pg';
import { type Environment } from '@frete/contracts';
import { brlDeCentavos, qrCodeMdfe, textoKgDeGramas, totaisMdfe } from '@frete/domain';
import { companyOf, configuracaoOf, type MdfeRow } from '@frete/projections';
import { renderDamdfe } from '@frete/documents';

const texto = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1]?.replace(/&amp;/g, '&') ?? null;

/**
 * The DAMDFE of an authorized MDF-e (`row.chave` set), from its archived mdfeProc and the manifest's data: one
 * drawing for the API's download and the panel's, so both give the same PDF.
 */
export async function damdfeDoMdfe(
  pool: Pool,
  companyId: string,
  row: MdfeRow & { chave: string },
  xml: string,
  environment: Environment,
): Promise<Buffer> {
  const [company, conf] = await Promise.all([companyOf(pool, companyId, ''), configuracaoOf(pool, companyId)]);
  const d = row.dados;
  const totais = totaisMdfe(d.ctes);
  const e = conf.endereco;
  return renderDamdfe(
    {
      chave: row.chave,
      serie: row.serie ?? 0,
      numero: Number(row.numero ?? 0),
      data_emissao: row.data_emissao ?? texto(xml, 'dhEmi') ?? '',
      uf_inicio: d.uf_inicio,
      uf_fim: d.uf_fim,
      percurso: d.percurso,
      emitente: {
        nome: company?.razao_social ?? '',
        cnpj: company?.cnpj ?? '',
        ie: conf.inscricao_estadual,
        endereco: e ? `${e.logradouro}, ${e.numero} - ${e.bairro} - ${e.municipio}/${e.uf} - CEP ${e.cep}` : '',
      },
      protocolo: row.protocolo ? { numero: row.protocolo.numero, recebido_em: row.protocolo.recebido_em } : null,
      qr_code: texto(xml, 'qrCodMDFe') ?? qrCodeMdfe(row.chave, environment),
      rntrc: texto(xml, 'RNTRC'),
      veiculos: [
        { placa: d.veiculo.placa, uf: d.veiculo.uf, tipo: 'TRAÇÃO' },
        ...d.reboques.map((r) => ({ placa: r.placa, uf: r.uf, tipo: 'REBOQUE' })),
      ],
      condutores: row.condutores,
      ctes: d.ctes.map((c) => c.chave),
      carregamento: d.carregamento.map((m) => `${m.municipio}/${m.uf}`),
      descarregamento: [...new Set(d.ctes.map((c) => `${c.descarga.municipio}/${c.descarga.uf}`))],
      qtd_cte: totais.qtd_cte,
      valor_carga: brlDeCentavos(totais.valor_carga_centavos),
      peso_kg: textoKgDeGramas(totais.peso_gramas),
      observacoes: d.observacoes,
    },
    {
      environment,
      situacao: row.situacao === 'autorizado' ? null : (row.situacao as 'cancelado' | 'encerrado'),
    },
  );
}
