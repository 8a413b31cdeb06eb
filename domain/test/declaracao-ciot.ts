import { type DeclaracaoCiot } from '@frete/contracts';

/**
 * A CIOT declaration as a client sends it (masked documents, a lower-case town, a plate with a hyphen, a name with
 * two spaces): a full load from São Paulo to Rio de Janeiro with one fiscal document; `over` replaces a group.
 */
export const declaracaoCiot = (over: Partial<DeclaracaoCiot> = {}): DeclaracaoCiot => ({
  contratado: { documento: '11.222.333/0001-81' },
  carga: { tipo: 'lotacao', peso_kg: 12000.5 },
  rota: { origem: { municipio: 'sao paulo', uf: 'SP' }, destino: { municipio: 'RIO DE JANEIRO', uf: 'RJ' } },
  veiculos: [{ placa: 'abc-1d23' }],
  documentos_fiscais: [
    {
      numero: '123',
      remetente: { documento: '11222333000181', nome: 'REMETENTE' },
      destinatario: { documento: '529.982.247-25', nome: 'JOSE' },
    },
  ],
  valores: { frete: 1500.5 },
  motorista: { cpf: '529.982.247-25', nome: 'JOAO  MOTORISTA' },
  ...over,
});
