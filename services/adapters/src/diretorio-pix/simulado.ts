import { createHash } from 'node:crypto';
import { type ChavePix, type TipoChavePix } from '@frete/contracts';
import { type ChavePixEncontrada, type DiretorioPix } from './port';

/**
 * Sandbox sentinels (design): the directory has no such key. One per key type, each a valid key of its type, so that
 * integrators can test the `chave_pix_nao_encontrada` path with any type.
 */
export const CHAVES_PIX_INEXISTENTES: Readonly<Record<TipoChavePix, string>> = {
  cpf: '00000000191',
  cnpj: '99999999000191',
  email: 'nao.encontrada@pix.simulado',
  telefone: '+5511900000000',
  aleatoria: '00000000-0000-0000-0000-000000000000',
};

const NOMES = ['JOAO', 'MARIA', 'JOSE', 'ANA', 'ANTONIO', 'FRANCISCA', 'CARLOS', 'PAULA', 'PEDRO', 'LUCIA', 'FRANCISCO', 'ADRIANA'];
const PARTICULAS = ['DA', 'DOS', 'DE'];
const SOBRENOMES = [
  'SILVA',
  'SANTOS',
  'OLIVEIRA',
  'SOUZA',
  'RODRIGUES',
  'FERREIRA',
  'ALVES',
  'PEREIRA',
  'LIMA',
  'GOMES',
  'COSTA',
  'RIBEIRO',
];
/** Real ISPBs of large institutions: a plausible answer, no account behind it. */
const BANCOS = [
  { ispb: '00000000', nome: 'BANCO DO BRASIL S.A.' },
  { ispb: '00360305', nome: 'CAIXA ECONOMICA FEDERAL' },
  { ispb: '60701190', nome: 'ITAU UNIBANCO S.A.' },
  { ispb: '60746948', nome: 'BANCO BRADESCO S.A.' },
  { ispb: '90400888', nome: 'BANCO SANTANDER (BRASIL) S.A.' },
  { ispb: '18236120', nome: 'NU PAGAMENTOS S.A. - INSTITUICAO DE PAGAMENTO' },
] as const;

const cpfComDigitos = (base9: string): string => {
  const digit = (s: string) => {
    let sum = 0;
    for (let i = 0; i < s.length; i++) sum += Number(s[i]) * (s.length + 1 - i);
    return ((sum * 10) % 11) % 10;
  };
  const d1 = digit(base9);
  return `${base9}${d1}${digit(base9 + d1)}`;
};

/**
 * The simulated directory (sandbox): the same key always gets the same answer, derived from a SHA-256 of its type and
 * normalized value. A CNPJ key belongs to a company with that CNPJ; any other key to a person (a CPF key to that CPF,
 * the others to a CPF derived from the key). Names, institution (real ISPBs) and account type come from the digest.
 */
export class DiretorioPixSimulado implements DiretorioPix {
  readonly disponivel = true;

  consultarChave(chave: ChavePix): Promise<ChavePixEncontrada | null> {
    if (CHAVES_PIX_INEXISTENTES[chave.tipo] === chave.valor) return Promise.resolve(null);
    const h = createHash('sha256').update(`${chave.tipo}:${chave.valor}`).digest();
    const byte = (i: number) => h[i % h.length]!;
    const sobrenome1 = SOBRENOMES[byte(2) % SOBRENOMES.length]!;
    const sobrenome2 = SOBRENOMES[((byte(2) % SOBRENOMES.length) + 1 + (byte(3) % (SOBRENOMES.length - 1))) % SOBRENOMES.length]!;
    const banco = BANCOS[byte(4) % BANCOS.length]!;
    const titular =
      chave.tipo === 'cnpj'
        ? { tipo_pessoa: 'juridica' as const, nome: `TRANSPORTES ${sobrenome1} ${sobrenome2} LTDA`, documento: chave.valor }
        : {
            tipo_pessoa: 'fisica' as const,
            nome: [
              NOMES[byte(0) % NOMES.length]!,
              ...(byte(1) % 2 === 0 ? [PARTICULAS[byte(1) % PARTICULAS.length]!] : []),
              sobrenome1,
              sobrenome2,
            ].join(' '),
            documento:
              chave.tipo === 'cpf' ? chave.valor : cpfComDigitos(Array.from({ length: 9 }, (_, i) => String(byte(8 + i) % 10)).join('')),
          };
    return Promise.resolve({
      tipo: chave.tipo,
      chave: chave.valor,
      titular,
      banco: { ...banco },
      tipo_conta: banco.ispb === '18236120' ? 'pagamento' : byte(5) % 5 === 0 ? 'poupanca' : 'corrente',
      verificacao: 'simulada',
    });
  }
}
