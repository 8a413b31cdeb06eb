import { type NfeLida, type ParteLida } from '@frete/contracts';
import { accessKeyParts, isValidAccessKey } from '../fiscal/access-key';
import { scaledDecimal } from '../xml/decimal';
import { endereco } from '../xml/endereco';
import { excerpt } from '../xml/excerpt';
import { fiscalXmlParser } from '../xml/fiscal-xml';
import { node, required, text, type XmlNode } from '../xml/nodes';

/**
 * One reader for NF-e as carriers receive them: `nfeProc` (with the authorization protocol) or bare `NFe`,
 * layout 4.00, model 55. Hostile input is refused before any parsing work (DOCTYPE, entity declarations, absurd
 * nesting), then malformed XML; the fields the freight flow needs are read into `NfeLida`.
 */

export type NfeReadErrorCode = 'xml_hostil' | 'xml_malformado' | 'documento_nao_e_nfe' | 'layout_nao_suportado' | 'chave_invalida';

export class NfeReadError extends Error {
  constructor(
    readonly code: NfeReadErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'NfeReadError';
  }
}

export type { NfeLida } from '@frete/contracts';

const notNfe = (message: string) => new NfeReadError('documento_nao_e_nfe', message);

const parse = fiscalXmlParser({ proc: 'nfeProc', root: 'NFe', arrays: ['vol', 'det', 'NFref', 'detPag'] }, (refusal, message) =>
  refusal === 'not_this_document' ? notNfe(message) : new NfeReadError(refusal, message),
);

const req = (v: unknown, what: string): string => required(text(v), what, notNfe);

const int = (v: unknown, what: string): number => {
  const t = req(v, what);
  if (!/^\d{1,9}$/.test(t)) throw new NfeReadError('documento_nao_e_nfe', `${what}: not an integer: '${excerpt(t)}'`);
  return Number(t);
};

/** "1234.5" → 123450 with `places` 2; "12.345" → 12345 with 3. Exact: no floating point. */
function fixed(value: string, places: number, what: string): number {
  const n = scaledDecimal(value, places, 15);
  if (n === null) throw notNfe(`${what}: not a decimal with up to ${places} places: '${excerpt(value)}'`);
  return n;
}
const optionalFixed = (v: unknown, places: number, what: string): number | null => {
  const t = text(v);
  return t === null || t === '' ? null : fixed(t, places, what);
};

function documento(n: XmlNode): Pick<ParteLida, 'documento' | 'tipo_documento'> {
  const cnpj = text(n.CNPJ);
  const cpf = text(n.CPF);
  const estrangeiro = text(n.idEstrangeiro);
  return {
    documento: cnpj || cpf || estrangeiro || null,
    tipo_documento: cnpj ? 'CNPJ' : cpf ? 'CPF' : estrangeiro !== null ? 'estrangeiro' : null,
  };
}

function parte(n: XmlNode | null, enderecoTag: string): ParteLida | null {
  if (!n) return null;
  return {
    ...documento(n),
    ie: text(n.IE),
    nome: text(n.xNome),
    fantasia: text(n.xFant),
    telefone: text(node(n[enderecoTag])?.fone) ?? text(n.fone),
    email: text(n.email),
    endereco: endereco(node(n[enderecoTag])),
  };
}

/** `transp/transporta` has a flat address: `xEnder`, `xMun`, `UF`. */
function transportador(n: XmlNode | null): ParteLida | null {
  if (!n) return null;
  const flat = [n.xEnder, n.xMun, n.UF].some((v) => text(v) !== null);
  return {
    ...documento(n),
    ie: text(n.IE),
    nome: text(n.xNome),
    fantasia: null,
    telefone: null,
    email: null,
    endereco: flat
      ? {
          logradouro: text(n.xEnder),
          numero: null,
          complemento: null,
          bairro: null,
          codigo_municipio: null,
          municipio: text(n.xMun),
          uf: text(n.UF),
          cep: null,
          pais: null,
        }
      : null,
  };
}

function carga(transp: XmlNode | null): NfeLida['carga'] {
  const vols = ((transp?.vol as unknown[] | undefined) ?? []).map(node).filter((v): v is XmlNode => v !== null);
  const sum = (values: (number | null)[]) => (values.some((v) => v !== null) ? values.reduce<number>((a, v) => a + (v ?? 0), 0) : null);
  return {
    volumes: sum(vols.map((v) => optionalFixed(v.qVol, 0, 'vol/qVol'))),
    peso_liquido_g: sum(vols.map((v) => optionalFixed(v.pesoL, 3, 'vol/pesoL'))),
    peso_bruto_g: sum(vols.map((v) => optionalFixed(v.pesoB, 3, 'vol/pesoB'))),
  };
}

export function readNfe(input: string): NfeLida {
  const xml = input.replace(/^\uFEFF?\s*/, '');
  const { proc, root: nfe } = parse(xml);
  const inf = node(nfe.infNFe);
  if (!inf) throw new NfeReadError('documento_nao_e_nfe', 'missing infNFe');
  const versao = req(inf['@_versao'], 'infNFe@versao');
  if (versao !== '4.00') throw new NfeReadError('layout_nao_suportado', `NF-e layout ${excerpt(versao)} is not accepted (4.00 is)`);
  const chave = req(inf['@_Id'], 'infNFe@Id').replace(/^NFe/, '');
  if (!isValidAccessKey(chave)) throw new NfeReadError('chave_invalida', `access key ${excerpt(chave)} has a wrong check digit or shape`);

  const ide = node(inf.ide);
  if (!ide) throw new NfeReadError('documento_nao_e_nfe', 'missing ide');
  const modelo = req(ide.mod, 'ide/mod');
  if (modelo !== '55') {
    throw new NfeReadError(
      'documento_nao_e_nfe',
      modelo === '65' ? 'an NFC-e (model 65) is not an NF-e' : `model ${excerpt(modelo)} is not an NF-e (55)`,
    );
  }
  const serie = int(ide.serie, 'ide/serie');
  const numero = int(ide.nNF, 'ide/nNF');
  const parts = accessKeyParts(chave);
  if (parts.modelo !== modelo || parts.serie !== serie || parts.numero !== numero || parts.cUF !== req(ide.cUF, 'ide/cUF')) {
    throw new NfeReadError('chave_invalida', `access key ${excerpt(chave)} does not match the document's UF, model, series and number`);
  }

  const emitente = parte(node(inf.emit), 'enderEmit');
  if (!emitente?.documento) throw new NfeReadError('documento_nao_e_nfe', 'missing emit/CNPJ or emit/CPF');
  const total = node(node(inf.total)?.ICMSTot);
  const transp = node(inf.transp);
  const modFrete = text(transp?.modFrete);
  const prot = node(node(proc?.protNFe)?.infProt);
  const protocolo = prot
    ? {
        numero: req(prot.nProt, 'infProt/nProt'),
        recebido_em: req(prot.dhRecbto, 'infProt/dhRecbto'),
        status: int(prot.cStat, 'infProt/cStat'),
        motivo: req(prot.xMotivo, 'infProt/xMotivo'),
        chave: req(prot.chNFe, 'infProt/chNFe'),
      }
    : null;
  if (protocolo && protocolo.chave !== chave) {
    throw new NfeReadError('chave_invalida', `the protocol is of access key ${excerpt(protocolo.chave)}, not of ${excerpt(chave)}`);
  }

  return {
    chave,
    versao,
    modelo,
    serie,
    numero,
    codigo_numerico: req(ide.cNF, 'ide/cNF'),
    natureza_operacao: req(ide.natOp, 'ide/natOp'),
    tipo_operacao: req(ide.tpNF, 'ide/tpNF') === '0' ? 'entrada' : 'saida',
    finalidade: int(ide.finNFe, 'ide/finNFe'),
    data_emissao: req(ide.dhEmi, 'ide/dhEmi'),
    data_saida_entrada: text(ide.dhSaiEnt),
    ambiente: req(ide.tpAmb, 'ide/tpAmb') === '1' ? 'producao' : 'homologacao',
    emitente,
    destinatario: parte(node(inf.dest), 'enderDest'),
    valor_total_centavos: fixed(req(total?.vNF, 'total/ICMSTot/vNF'), 2, 'vNF'),
    valor_produtos_centavos: optionalFixed(total?.vProd, 2, 'vProd'),
    modalidade_frete: modFrete === null ? null : int(modFrete, 'transp/modFrete'),
    transportador: transportador(node(transp?.transporta)),
    carga: carga(transp),
    protocolo,
  };
}
