import { ErrorCodes } from '@frete/contracts';
import { MENSAGENS, MOTIVOS, mensagemDe } from '../../services/console/src/mensagens';

/** Issue 28, point 6: the panel says every refusal in Portuguese, whatever code the handlers answer. */
describe("the panel's Portuguese text for every refusal code", () => {
  it('has a text for every error code of the API (the batch rows carry those codes too), and no text for a code that is gone', () => {
    const semTexto = Object.keys(ErrorCodes).filter((code) => !(MENSAGENS as Record<string, string>)[code]?.trim());
    expect(semTexto).toEqual([]);
    expect(Object.keys(MENSAGENS).filter((code) => !Object.hasOwn(ErrorCodes, code))).toEqual([]);
  });

  it('says each in Portuguese: a sentence, not the code nor an English message', () => {
    for (const [code, texto] of Object.entries({ ...MENSAGENS, ...MOTIVOS })) {
      expect({ code, frase: /^[A-ZÁÉÍÓÚÂÊÔÃÕÇ].*[.!]$/.test(texto) }).toEqual({ code, frase: true });
      expect({ code, contemCodigo: texto.includes(code) }).toEqual({ code, contemCodigo: false });
      expect({ code, ingles: /\b(the|must|not found|is|was|already)\b/.test(texto) }).toEqual({ code, ingles: false });
    }
  });

  it('answers a text for the row and MDF-e reason codes, and a sentence for a code it does not know', () => {
    expect(mensagemDe('cte_nao_recebido')).toBe('O CT-e da contratante não está na caixa de entrada.');
    expect(mensagemDe('sem_repasse')).toBe(MOTIVOS.sem_repasse);
    expect(mensagemDe('toString')).toBe('A operação foi recusada.');
    expect(mensagemDe('codigo_de_amanha')).toBe('A operação foi recusada.');
  });
});
