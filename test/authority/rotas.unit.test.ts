import { rotaDe, ufsAtendidas } from '@frete/authority';
import { autorizadorCte, ENDERECOS_CTE, ENDERECOS_MDFE, SERVICOS_CTE } from '@frete/adapters';
import { UFS } from '@frete/domain';

const codigo = (sigla: string) => UFS.find((u) => u.sigla === sigla)!.codigo_ibge;

describe('rotaDe', () => {
  it('reads /<authorizer>/<Service>, the layout SEFAZ_BASE_URL gives', () => {
    expect(rotaDe('/SVRS/CTeRecepcaoSincV4')).toEqual({ autorizador: 'SVRS', servico: 'CTeRecepcaoSincV4' });
    expect(rotaDe('/SVC-RS/CTeConsultaV4')).toEqual({ autorizador: 'SVC-RS', servico: 'CTeConsultaV4' });
    expect(rotaDe('/SP/CTeStatusServicoV4/')).toEqual({ autorizador: 'SP', servico: 'CTeStatusServicoV4' });
    expect(rotaDe('/SVRS/MDFeConsNaoEnc')).toEqual({ autorizador: 'SVRS', servico: 'MDFeConsNaoEnc' });
  });

  it('has no MDF-e outside SVRS, no unknown authorizer or service', () => {
    expect(rotaDe('/SP/MDFeRecepcaoSinc')).toBeNull();
    expect(rotaDe('/XX/CTeConsultaV4')).toBeNull();
    expect(rotaDe('/SVRS/NFeAutorizacao4')).toBeNull();
    expect(rotaDe('/CTeConsultaV4')).toBeNull();
    expect(rotaDe('/')).toBeNull();
  });

  it('takes every path of the real endpoint table (either environment, any case) as SVRS', () => {
    const urls = [
      ...Object.values(ENDERECOS_CTE).flatMap((e) => SERVICOS_CTE.flatMap((s) => [e.homologacao(s), e.producao(s)])),
      ENDERECOS_MDFE.homologacao('MDFeConsulta'),
    ];
    for (const url of urls) {
      const servico = /([A-Za-z0-9]+)(\.asmx)?$/.exec(url)![1];
      expect({ url, rota: rotaDe(new URL(url).pathname) }).toEqual({ url, rota: { autorizador: 'SVRS', servico } });
    }
    expect(rotaDe('/WS/CTeConsultaV4/CTeConsultaV4.ASMX')).toEqual({ autorizador: 'SVRS', servico: 'CTeConsultaV4' });
    expect(rotaDe('/ws/CTeConsultaV4/CTeStatusServicoV4.asmx')).toBeNull();
    expect(rotaDe('/cte4/nada/CTeConsultaV4')).toBeNull();
  });
});

describe('ufsAtendidas', () => {
  it('gives each CT-e authorizer the UFs the routing sends to it, and SVRS RS as well (its hosts)', () => {
    expect(ufsAtendidas('SP', 'cte')).toEqual([codigo('SP')]);
    expect(ufsAtendidas('SVSP', 'cte').sort()).toEqual(['AP', 'PE', 'RR'].map(codigo).sort());
    const svrs = UFS.filter((u) => autorizadorCte(u.sigla) === 'SVRS' || u.sigla === 'RS').map((u) => u.codigo_ibge);
    expect(ufsAtendidas('SVRS', 'cte').sort()).toEqual(svrs.sort());
    expect(ufsAtendidas('RS', 'cte')).toEqual([codigo('RS')]);
  });

  it('gives the contingency authorizers their states, and MDF-e every state at SVRS only', () => {
    // The explicit UF → SVC table (domain/src/fiscal/autorizadores.ts): MS and MT, too, go to SVC-RS.
    expect(ufsAtendidas('SVC-RS', 'cte').sort()).toEqual(['AP', 'MS', 'MT', 'PE', 'RR', 'SP'].map(codigo).sort());
    expect(ufsAtendidas('SVC-SP', 'cte')).toHaveLength(UFS.length - 6);
    expect(ufsAtendidas('SVRS', 'mdfe')).toHaveLength(27);
    expect(ufsAtendidas('SP', 'mdfe')).toEqual([]);
  });
});
