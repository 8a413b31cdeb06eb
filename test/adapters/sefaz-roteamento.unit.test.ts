import { UFS } from '@frete/domain';
import {
  AUTORIZADOR_CTE_POR_UF,
  autorizadorContingenciaCte,
  autorizadorCte,
  CONTINGENCIA_CTE_POR_UF,
  destinoDaChave,
  destinoSefaz,
  ENDERECOS_CTE,
  SERVICOS_CTE,
  SERVICOS_MDFE,
  TP_EMIS_CONTINGENCIA,
  tpAmbDe,
} from '@frete/adapters';

/** Routing as data (issue 13, point 2): the emitter's UF picks the authorizer, the environment the address. */
describe('SEFAZ routing', () => {
  it('gives each UF its CT-e authorizer: six authorize their own, AP, PE and RR use SVSP, the rest SVRS', () => {
    const por = Object.fromEntries(UFS.map((u) => [u.sigla, autorizadorCte(u.sigla)]));
    expect(por).toMatchObject({ MG: 'MG', MS: 'MS', MT: 'MT', PR: 'PR', RS: 'RS', SP: 'SP', AP: 'SVSP', PE: 'SVSP', RR: 'SVSP' });
    const svrs = ['AC', 'AL', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'PA', 'PB', 'PI', 'RJ', 'RN', 'RO', 'SC', 'SE', 'TO'];
    for (const uf of svrs) expect(por[uf]).toBe('SVRS');
    expect(Object.keys(por)).toHaveLength(27);
  });

  it('addresses CT-e and MDF-e services per environment from the built-in table', () => {
    expect(destinoSefaz('BA', 'CTeRecepcaoSincV4', 'homologacao')).toEqual({
      autorizador: 'SVRS',
      url: 'https://cte-homologacao.svrs.rs.gov.br/ws/CTeRecepcaoSincV4/CTeRecepcaoSincV4.asmx',
    });
    expect(destinoSefaz('SP', 'CTeConsultaV4', 'producao').url).toBe('https://nfe.fazenda.sp.gov.br/CTeWS/WS/CTeConsultaV4.asmx');
    expect(destinoSefaz('MG', 'CTeRecepcaoEventoV4', 'homologacao').url).toBe(
      'https://hcte.fazenda.mg.gov.br/cte/services/CTeRecepcaoEventoV4',
    );
    // MDF-e goes to SVRS whatever the UF.
    expect(destinoSefaz('SP', 'MDFeRecepcaoSinc', 'producao')).toEqual({
      autorizador: 'SVRS',
      url: 'https://mdfe.svrs.rs.gov.br/ws/MDFeRecepcaoSinc/MDFeRecepcaoSinc.asmx',
    });
    for (const uf of UFS.map((u) => u.sigla)) {
      for (const s of SERVICOS_CTE) expect(destinoSefaz(uf, s, 'producao').url).toMatch(/^https:\/\/[a-z0-9.-]+\.gov\.br\/.*\b/);
    }
    for (const s of SERVICOS_MDFE) expect(destinoSefaz('RJ', s, 'homologacao').url).toContain(`/ws/${s}/${s}.asmx`);
  });

  it("has SVSP built in (SP's hosts, both environments), so AP, PE and RR work without configuration", () => {
    for (const uf of ['AP', 'PE', 'RR'] as const) {
      expect(destinoSefaz(uf, 'CTeRecepcaoSincV4', 'producao')).toEqual({
        autorizador: 'SVSP',
        url: 'https://nfe.fazenda.sp.gov.br/CTeWS/WS/CTeRecepcaoSincV4.asmx',
      });
      expect(destinoSefaz(uf, 'CTeConsultaV4', 'homologacao').url).toBe(
        'https://homologacao.nfe.fazenda.sp.gov.br/CTeWS/WS/CTeConsultaV4.asmx',
      );
    }
    // Every authorizer, every CT-e service, both environments: an address, and SVSP's equal to SP's.
    for (const autorizador of Object.keys(ENDERECOS_CTE) as (keyof typeof ENDERECOS_CTE)[]) {
      for (const ambiente of ['homologacao', 'producao'] as const) {
        for (const s of SERVICOS_CTE) expect(ENDERECOS_CTE[autorizador][ambiente](s)).toMatch(/^https:\/\/[a-z0-9.-]+\.gov\.br\//);
      }
    }
    for (const s of SERVICOS_CTE) expect(ENDERECOS_CTE.SVSP.producao(s)).toBe(ENDERECOS_CTE.SP.producao(s));
    const url = 'https://svsp.example/CTeRecepcaoSincV4';
    expect(destinoSefaz('PE', 'CTeRecepcaoSincV4', 'producao', { endpoints: { SVSP: { CTeRecepcaoSincV4: url } } }).url).toBe(url);
  });

  it('lets SEFAZ_ENDPOINTS win over SEFAZ_BASE_URL, which wins over the table', () => {
    const base = { baseUrl: 'https://127.0.0.1:8443/' };
    expect(destinoSefaz('BA', 'CTeConsultaV4', 'homologacao', base).url).toBe('https://127.0.0.1:8443/SVRS/CTeConsultaV4');
    expect(destinoSefaz('PE', 'CTeConsultaV4', 'homologacao', base).url).toBe('https://127.0.0.1:8443/SVSP/CTeConsultaV4');
    const both = { ...base, endpoints: { SVRS: { CTeConsultaV4: 'https://other/x' } } };
    expect(destinoSefaz('BA', 'CTeConsultaV4', 'homologacao', both).url).toBe('https://other/x');
    expect(destinoSefaz('BA', 'CTeStatusServicoV4', 'homologacao', both).url).toBe('https://127.0.0.1:8443/SVRS/CTeStatusServicoV4');
  });

  it('maps the environment to tpAmb', () => {
    expect(tpAmbDe('homologacao')).toBe(2);
    expect(tpAmbDe('producao')).toBe(1);
  });
});

describe('SEFAZ routing by access key (contingency)', () => {
  const chave = (cUF: string, tpEmis: string) => `${cUF}2611${'1'.repeat(14)}57001${'0'.repeat(8)}1${tpEmis}${'0'.repeat(8)}0`;

  it('sends a key to its UF authorizer, and a key issued in contingency to SVC-RS (7) or SVC-SP (8)', () => {
    expect(chave('29', '1')).toHaveLength(44);
    expect(destinoDaChave(chave('29', '1'), 'CTeConsultaV4', 'homologacao').autorizador).toBe('SVRS');
    expect(destinoDaChave(chave('35', '1'), 'CTeConsultaV4', 'homologacao').autorizador).toBe('SP');
    expect(destinoDaChave(chave('35', '7'), 'CTeConsultaV4', 'homologacao')).toEqual({
      autorizador: 'SVC-RS',
      url: 'https://cte-homologacao.svrs.rs.gov.br/ws/CTeConsultaV4/CTeConsultaV4.asmx',
    });
    expect(destinoDaChave(chave('29', '8'), 'CTeRecepcaoEventoV4', 'producao')).toEqual({
      autorizador: 'SVC-SP',
      url: 'https://nfe.fazenda.sp.gov.br/CTeWS/WS/CTeRecepcaoEventoV4.asmx',
    });
    expect(destinoDaChave(chave('29', '8'), 'CTeConsultaV4', 'homologacao', { baseUrl: 'https://h:1' }).url).toBe(
      'https://h:1/SVC-SP/CTeConsultaV4',
    );
    // MDF-e has no virtual contingency authorizer: SVRS whatever the key says.
    expect(destinoDaChave(chave('35', '7'), 'MDFeConsulta', 'homologacao').autorizador).toBe('SVRS');
  });

  it('assigns each UF its SVC from the explicit table (sped-cte Contingency.php, Java_CTe), with their tpEmis', () => {
    const rs = UFS.map((u) => u.sigla).filter((u) => autorizadorContingenciaCte(u) === 'SVC-RS');
    // Not "the states SP authorizes": MS and MT authorize their own and still go to SVC-RS.
    expect(rs.sort()).toEqual(['AP', 'MS', 'MT', 'PE', 'RR', 'SP']);
    const sp = UFS.map((u) => u.sigla).filter((u) => autorizadorContingenciaCte(u) === 'SVC-SP');
    expect(sp).toHaveLength(21);
    expect(sp).toEqual(expect.arrayContaining(['BA', 'MG', 'PR', 'RS', 'RJ', 'GO']));
    expect(Object.keys(CONTINGENCIA_CTE_POR_UF).sort()).toEqual(UFS.map((u) => u.sigla).sort());
    expect(Object.keys(AUTORIZADOR_CTE_POR_UF).sort()).toEqual(UFS.map((u) => u.sigla).sort());
    expect(() => autorizadorCte('EX')).toThrow('no CT-e authorizer for UF "EX"');
    expect(TP_EMIS_CONTINGENCIA).toEqual({ 'SVC-RS': 7, 'SVC-SP': 8 });
    // A contingency key of MT goes to SVC-RS's hosts (SVRS), one of MG to SVC-SP's (SP).
    expect(destinoDaChave(chave('51', '7'), 'CTeRecepcaoEventoV4', 'producao').url).toBe(
      'https://cte.svrs.rs.gov.br/ws/CTeRecepcaoEventoV4/CTeRecepcaoEventoV4.asmx',
    );
    expect(destinoDaChave(chave('31', '8'), 'CTeConsultaV4', 'producao').url).toBe(
      'https://nfe.fazenda.sp.gov.br/CTeWS/WS/CTeConsultaV4.asmx',
    );
  });
});
