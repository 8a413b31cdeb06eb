import { Type } from '@sinclair/typebox';
import { Environment } from './common';

/** Shapes shared by the inbox and own CT-e records: what the service read from the XML. */
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

export const CteEndereco = Type.Object(
  {
    logradouro: nullable(Type.String()),
    numero: nullable(Type.String()),
    complemento: nullable(Type.String()),
    bairro: nullable(Type.String()),
    codigo_ibge: nullable(Type.String()),
    municipio: nullable(Type.String()),
    uf: nullable(Type.String()),
    cep: nullable(Type.String()),
    pais: nullable(Type.String()),
  },
  { $id: 'CteEndereco' },
);

const partyFields = {
  documento: nullable(Type.String({ description: 'CNPJ, CPF or foreign id, as written in the XML' })),
  tipo_documento: nullable(Type.Union([Type.Literal('CNPJ'), Type.Literal('CPF'), Type.Literal('estrangeiro')])),
  nome: nullable(Type.String()),
  ie: nullable(Type.String()),
};

/** A party as the list shows it (no address). */
export const CteParteResumo = Type.Object(partyFields, { $id: 'CteParteResumo' });
/** A party with its full address, as the single-document reads show it. */
export const CteParte = Type.Object({ ...partyFields, endereco: nullable(Type.Ref(CteEndereco)) }, { $id: 'CteParte' });

export const CteLocal = Type.Object(
  { codigo_ibge: Type.String(), municipio: Type.String(), uf: Type.String() },
  { $id: 'CteLocal', description: 'Start or end of the service (ide/cMunIni… or ide/cMunFim…)' },
);

export const CteProtocolo = Type.Object(
  {
    numero: Type.String(),
    recebido_em: Type.String({ description: 'dhRecbto as the authority wrote it' }),
    cstat: Type.Integer(),
    motivo: Type.String(),
  },
  { $id: 'CteProtocolo' },
);

export const PapelTomadorSchema = Type.Union(
  ['remetente', 'expedidor', 'recebedor', 'destinatario', 'outros'].map((v) => Type.Literal(v)),
  { description: 'The taker: `toma3/toma` 0 remetente, 1 expedidor, 2 recebedor, 3 destinatario; `outros` is group `toma4`' },
);

/** Fields of a CT-e read from its XML, common to the inbox and own CT-e records. */
export const cteDocumentFields = (withAddresses: boolean) => {
  const Parte = withAddresses ? Type.Ref(CteParte) : Type.Ref(CteParteResumo);
  return {
    access_key: Type.String({ description: 'Access key, 44 characters' }),
    model: Type.String({ description: '57 CT-e, 67 CT-e OS' }),
    layout_version: Type.String({ description: 'infCte@versao: 4.00 or 3.00' }),
    series: Type.Integer(),
    number: Type.Integer(),
    issued_at: Type.String({ description: 'dhEmi as written in the XML (Brasília offset)' }),
    document_environment: Environment,
    service_type: Type.Integer({
      description: 'ide/tpServ: 0 normal, 1 subcontracting, 2 redispatch, 3 intermediate redispatch, 4 linked to multimodal',
    }),
    cte_type: Type.Integer({ description: 'ide/tpCTe: 0 normal, 1 complementary, 2 annulment (3.00), 3 substitute' }),
    modal: Type.String({ description: 'ide/modal: 01 road … 06 multimodal' }),
    cfop: Type.String(),
    emitente: Parte,
    remetente: nullable(Parte),
    expedidor: nullable(Parte),
    recebedor: nullable(Parte),
    destinatario: nullable(Parte),
    tomador: Type.Object({ papel: PapelTomadorSchema, codigo: Type.Integer({ minimum: 0, maximum: 4 }), parte: nullable(Parte) }),
    inicio: Type.Ref(CteLocal),
    fim: Type.Ref(CteLocal),
    service_value: Type.Number({ description: 'vPrest/vTPrest, decimal with two places' }),
    amount_receivable: Type.Number({ description: 'vPrest/vRec, decimal with two places' }),
    nfe_keys: Type.Array(Type.String(), { description: 'Access keys of the transported NF-e (infDoc/infNFe/chave)' }),
    protocol: nullable(Type.Ref(CteProtocolo)),
    xml: Type.Object({ sha256: Type.String(), size_bytes: Type.Integer() }, { description: 'The archived XML, kept byte for byte' }),
  };
};

export const CTE_DOCUMENT_SCHEMAS = [CteEndereco, CteParteResumo, CteParte, CteLocal, CteProtocolo];
