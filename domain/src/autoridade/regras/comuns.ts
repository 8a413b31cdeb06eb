import { accessKeyCheckDigit } from '../../fiscal/access-key';
import { isValidCnpj } from '../../fiscal/documents';
import { ufBySigla } from '../../fiscal/ufs';
import { atributo, type DocumentoFiscal, type ModeloRegras, no, texto } from './documento';
import { type RegraAutoridade } from './tipos';

/**
 * The document's identity, checked alike for CT-e and MDF-e: environment, the authorizing UF, the access key the
 * fields compose, the emitter's CNPJ. Their texts differ by model where the manuals' tables do (253, 226).
 */

const CAMPOS = {
  cte: { prefixo: 'CTe', numero: 'nCT', codigo: 'cCT' },
  mdfe: { prefixo: 'MDFe', numero: 'nMDF', codigo: 'cMDF' },
} as const;

const ide = (d: DocumentoFiscal) => no(d.inf, 'ide');
const campo = (d: DocumentoFiscal, n: string) => texto(ide(d), n) ?? '';

/** The emitter as the key writes it: the CNPJ, or the CPF after three zeros. */
export const emitenteDaChave = (d: DocumentoFiscal): string => texto(d.inf, 'emit', 'CNPJ') ?? `000${texto(d.inf, 'emit', 'CPF') ?? ''}`;

/** The key the document's fields compose: cUF, AAMM of dhEmi, emitter, mod, series, number, tpEmis, code, cDV. */
export function chaveComposta(d: DocumentoFiscal): string {
  const c = CAMPOS[d.modelo];
  const dhEmi = campo(d, 'dhEmi');
  return (
    campo(d, 'cUF') +
    dhEmi.slice(2, 4) +
    dhEmi.slice(5, 7) +
    emitenteDaChave(d) +
    campo(d, 'mod') +
    campo(d, 'serie').padStart(3, '0') +
    campo(d, c.numero).padStart(9, '0') +
    campo(d, 'tpEmis') +
    campo(d, c.codigo).padStart(8, '0') +
    campo(d, 'cDV')
  );
}

const MANUAL = { cte: 'MOC CT-e 4.00 Anexo I, 2.1', mdfe: 'MOC MDF-e 3.00 Anexo I (regras de validação da recepção)' } as const;
const TEXTO_253 = {
  cte: 'Rejeição: Dígito Verificador da chave de acesso composta inválido',
  // The MDF-e manual's spelling ("Digito").
  mdfe: 'Rejeição: Digito Verificador da chave de acesso composta inválido',
} as const;

/** G001 252 and the authorizing UF (226); model-specific rules follow. */
export const regraAmbiente = (aplica: ModeloRegras): RegraAutoridade => ({
  regra: aplica === 'cte' ? 'G001' : 'tpAmb',
  cStat: 252,
  xMotivo: 'Rejeição: Ambiente informado diverge do Ambiente de recebimento',
  fonte: `${MANUAL[aplica]}${aplica === 'cte' ? ' G001' : ''}`,
  aplica,
  verificar: (d, ctx) => (campo(d, 'tpAmb') === String(ctx.tpAmb) ? null : ''),
});

export const regraUfAtendida = (aplica: ModeloRegras): RegraAutoridade => ({
  regra: 'cUF',
  cStat: 226,
  xMotivo: 'Rejeição: Código da UF do Emitente diverge da UF autorizadora',
  fonte:
    aplica === 'cte'
      ? 'MOC CT-e 4.00 Visão Geral, validação da área de dados (C07: UF atendida pelo autorizador); the simulated authority answers 226'
      : 'MOC MDF-e 3.00, UF atendida pelo autorizador; the simulated authority answers 226',
  aplica,
  verificar: (d, ctx) => (!ctx.ufsAtendidas || ctx.ufsAtendidas.has(campo(d, 'cUF')) ? null : ''),
});

export const regraUfEmitente = (aplica: ModeloRegras): RegraAutoridade => ({
  regra: aplica === 'cte' ? 'G007' : 'UF emitente',
  cStat: 247,
  xMotivo: 'Rejeição: Sigla da UF do Emitente diverge da UF autorizadora',
  fonte: `${MANUAL[aplica]}${aplica === 'cte' ? ' G007' : ''}`,
  aplica,
  verificar: (d) => (ufBySigla(texto(d.inf, 'emit', 'enderEmit', 'UF') ?? '')?.codigo_ibge === campo(d, 'cUF') ? null : ''),
});

export const regraCampoId = (aplica: ModeloRegras): RegraAutoridade => ({
  regra: aplica === 'cte' ? 'G014' : 'Id',
  cStat: 227,
  xMotivo: 'Rejeição: Erro na composição do Campo ID',
  fonte: `${MANUAL[aplica]}${aplica === 'cte' ? ' G014' : ''}`,
  aplica,
  verificar: (d) => (atributo(d.inf, 'Id') === CAMPOS[d.modelo].prefixo + chaveComposta(d) ? null : ''),
});

export const regraDigitoChave = (aplica: ModeloRegras): RegraAutoridade => ({
  regra: aplica === 'cte' ? 'G015' : 'cDV',
  cStat: 253,
  xMotivo: TEXTO_253[aplica],
  fonte: `${MANUAL[aplica]}${aplica === 'cte' ? ' G015' : ''}`,
  aplica,
  verificar: (d) => {
    const c = chaveComposta(d);
    return c.length === 44 && accessKeyCheckDigit(c.slice(0, 43)) === Number(c.slice(43)) ? null : '';
  },
});

export const regraCnpjEmitente = (aplica: ModeloRegras): RegraAutoridade => ({
  regra: aplica === 'cte' ? 'G104' : 'CNPJ emitente',
  cStat: 207,
  xMotivo: 'Rejeição: CNPJ do emitente inválido',
  fonte: `${MANUAL[aplica]}${aplica === 'cte' ? ' G104' : ''}`,
  aplica,
  verificar: (d) => {
    const cnpj = texto(d.inf, 'emit', 'CNPJ');
    return cnpj === null || isValidCnpj(cnpj) ? null : '';
  },
});
