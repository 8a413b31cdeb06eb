import { Falhas, problemaDaRegra } from '@frete/authority';

describe('Falhas', () => {
  it('hands the first matching rule to each request, counting its times down, and forgets it when spent', () => {
    const falhas = new Falhas();
    falhas.programar([
      { tipo: 'latencia', ms: 50, servico: 'CTeConsultaV4', vezes: 1 },
      { tipo: 'erro_servidor', vezes: 2 },
    ]);
    expect(falhas.tomar('CTeConsultaV4')).toEqual({ tipo: 'latencia', ms: 50 });
    expect(falhas.tomar('CTeConsultaV4')).toEqual({ tipo: 'erro_servidor' });
    expect(falhas.listar()).toEqual([{ tipo: 'erro_servidor', vezes: 1 }]);
    expect(falhas.tomar('MDFeConsNaoEnc')).toEqual({ tipo: 'erro_servidor' });
    expect(falhas.tomar('MDFeConsNaoEnc')).toBeNull();
  });

  it('keeps a rule without vezes until cleared', () => {
    const falhas = new Falhas();
    falhas.programar({ tipo: 'status', cStat: 678, servico: 'MDFeRecepcaoSinc' });
    for (let i = 0; i < 5; i++) expect(falhas.tomar('MDFeRecepcaoSinc')).toEqual({ tipo: 'status', cStat: 678 });
    expect(falhas.tomar('CTeRecepcaoSincV4')).toBeNull();
    falhas.limpar();
    expect(falhas.tomar('MDFeRecepcaoSinc')).toBeNull();
  });

  it('refuses the whole batch when one rule is bad', () => {
    const falhas = new Falhas();
    expect(() => falhas.programar([{ tipo: 'sem_resposta' }, { tipo: 'latencia', ms: 1.5 }])).toThrow(
      'invalid fault rule: ms must be an integer',
    );
    expect(falhas.listar()).toEqual([]);
    expect(problemaDaRegra(null)).toBe('a rule must be an object');
    expect(problemaDaRegra([])).toBe('a rule must be an object');
    expect(problemaDaRegra({ tipo: 'sem_resposta', servico: 'CTeConsultaV4', vezes: 3 })).toBeNull();
  });
});
