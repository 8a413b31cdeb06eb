/**
 * Fields a carta de correção may not change (MOC 4.00 Visão Geral §13.1, CT-e modelo 57): `grupo/campo`, compared
 * case-insensitively. The authority refuses them with 681; the service refuses them before sending.
 */
export const CCE_CAMPOS_VEDADOS: readonly string[] = [
  'infCte/versao', 'infCte/Id',
  'ide/cUF', 'ide/cCT', 'ide/mod', 'ide/serie', 'ide/nCT', 'ide/tpEmis', 'ide/cDV', 'ide/tpAmb', 'ide/dhEmi', 'ide/modal',
  'toma3/toma', 'toma4/CNPJ', 'toma4/CPF', 'toma4/IE',
  'emit/CNPJ', 'emit/IE',
  'rem/CNPJ', 'rem/CPF', 'rem/IE', 'dest/CNPJ', 'dest/CPF', 'dest/IE',
  'vPrest/vTPrest', 'Comp/vComp', 'vPresComp/vTPrest', 'compComp/vComp',
  'infNFe/chave',
  'ICMS00/CST', 'ICMS00/vBC', 'ICMS00/pICMS', 'ICMS00/vICMS',
  'ICMS20/CST', 'ICMS20/pRedBC', 'ICMS20/vBC', 'ICMS20/pICMS', 'ICMS20/vICMS',
  'ICMS45/CST',
  'ICMS60/CST', 'ICMS60/vBCSTRet', 'ICMS60/vICMSSTRet', 'ICMS60/pICMSSTRet', 'ICMS60/vCred',
  'ICMS90/CST', 'ICMS90/pRedBC', 'ICMS90/vBC', 'ICMS90/pICMS', 'ICMS90/vICMS', 'ICMS90/vCred',
  'ICMSOutraUF/CST', 'ICMSOutraUF/pRedBCOutraUF', 'ICMSOutraUF/vBCOutraUF', 'ICMSOutraUF/pICMSOutraUF', 'ICMSOutraUF/vICMSOutraUF',
  'ICMSSN/indSN', 'ICMSSN/CST',
];

const VEDADOS = new Set(CCE_CAMPOS_VEDADOS.map((c) => c.toLowerCase()));

export const campoVedadoNaCce = (grupo: string, campo: string): boolean => VEDADOS.has(`${grupo.trim()}/${campo.trim()}`.toLowerCase());
