import { type CteDoMdfe, type MdfeDados, type VeiculoMdfe } from '@frete/contracts';
import { type MontarMdfeInput } from '@frete/domain';
import { readPkcs12 } from '@frete/platform';
import { makeA1 } from './certificates';

/** The tractor ABC1D23 as an MDF-e records it (no RENAVAM given). */
export const TRACAO_MDFE: VeiculoMdfe = {
  placa: 'ABC1D23',
  renavam: null,
  tara_kg: 8000,
  capacidade_kg: 20000,
  capacidade_m3: null,
  tipo_rodado: '03',
  tipo_carroceria: '02',
  uf: 'SP',
};

/** A CT-e of R$ 25.000,00 and 1.000,5 kg unloaded in Rio de Janeiro. */
export const CTE_PARA_O_RIO: CteDoMdfe = {
  cte_id: 'a',
  chave: '35261111222333000181570010000000011403085211',
  valor_carga_centavos: 2_500_000,
  peso_gramas: 1_000_500,
  descarga: { codigo_ibge: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ' },
};

/** An MDF-e's recorded data: that CT-e, loaded in Campinas, on the tractor with one driver; `over` replaces whole fields. */
export const dadosMdfe = (over: Partial<MdfeDados> = {}): MdfeDados => ({
  ctes: [CTE_PARA_O_RIO],
  veiculo: TRACAO_MDFE,
  reboques: [],
  motoristas: [{ cpf: '52998224725', nome: 'JOÃO MOTORISTA' }],
  uf_inicio: 'SP',
  uf_fim: 'RJ',
  percurso: [],
  carregamento: [{ codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' }],
  observacoes: null,
  ...over,
});

/** The emitter of `entradaMdfe`: its CNPJ is the one its test certificate must carry. */
export const EMITENTE_MDFE: MontarMdfeInput['emitente'] = {
  cnpj: '11222333000181',
  razao_social: 'TRANSPORTADORA EXEMPLO LTDA',
  inscricao_estadual: '110042490114',
  rntrc: '12345678',
  endereco: { logradouro: 'AVENIDA PAULISTA', numero: '1000', bairro: 'BELA VISTA', municipio: 'São Paulo', uf: 'SP', cep: '01310100' },
};

/** What `montarMdfeXml` takes for `dados`: MDF-e 42 of series 1 in homologação, at a fixed instant and cMDF. */
export const entradaMdfe = (dados: MdfeDados, over: Partial<MontarMdfeInput> = {}): MontarMdfeInput => ({
  dados,
  emitente: EMITENTE_MDFE,
  serie: 1,
  numero: 42,
  cMDF: '40308521',
  dhEmi: '2026-11-20T10:30:00-03:00',
  ambiente: 'homologacao',
  ...over,
});

/** The keys of an A1 of `EMITENTE_MDFE` (of the test CA), to sign what `entradaMdfe` builds. */
export function chavesDoEmitenteMdfe(): { privateKeyPem: string; certificatePem: string } {
  const a1 = makeA1({ cnpj: EMITENTE_MDFE.cnpj, razao: EMITENTE_MDFE.razao_social, password: 'senha-do-a1', cnpjIn: 'otherName' });
  return readPkcs12(a1.pfx, 'senha-do-a1');
}
