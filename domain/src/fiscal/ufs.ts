import { type Uf } from '@frete/contracts';

/** The 27 federative units with their IBGE codes (the first two digits of every municipality's code). */
export const UFS: readonly { sigla: Uf; codigo_ibge: string; nome: string }[] = [
  { sigla: 'RO', codigo_ibge: '11', nome: 'Rondônia' },
  { sigla: 'AC', codigo_ibge: '12', nome: 'Acre' },
  { sigla: 'AM', codigo_ibge: '13', nome: 'Amazonas' },
  { sigla: 'RR', codigo_ibge: '14', nome: 'Roraima' },
  { sigla: 'PA', codigo_ibge: '15', nome: 'Pará' },
  { sigla: 'AP', codigo_ibge: '16', nome: 'Amapá' },
  { sigla: 'TO', codigo_ibge: '17', nome: 'Tocantins' },
  { sigla: 'MA', codigo_ibge: '21', nome: 'Maranhão' },
  { sigla: 'PI', codigo_ibge: '22', nome: 'Piauí' },
  { sigla: 'CE', codigo_ibge: '23', nome: 'Ceará' },
  { sigla: 'RN', codigo_ibge: '24', nome: 'Rio Grande do Norte' },
  { sigla: 'PB', codigo_ibge: '25', nome: 'Paraíba' },
  { sigla: 'PE', codigo_ibge: '26', nome: 'Pernambuco' },
  { sigla: 'AL', codigo_ibge: '27', nome: 'Alagoas' },
  { sigla: 'SE', codigo_ibge: '28', nome: 'Sergipe' },
  { sigla: 'BA', codigo_ibge: '29', nome: 'Bahia' },
  { sigla: 'MG', codigo_ibge: '31', nome: 'Minas Gerais' },
  { sigla: 'ES', codigo_ibge: '32', nome: 'Espírito Santo' },
  { sigla: 'RJ', codigo_ibge: '33', nome: 'Rio de Janeiro' },
  { sigla: 'SP', codigo_ibge: '35', nome: 'São Paulo' },
  { sigla: 'PR', codigo_ibge: '41', nome: 'Paraná' },
  { sigla: 'SC', codigo_ibge: '42', nome: 'Santa Catarina' },
  { sigla: 'RS', codigo_ibge: '43', nome: 'Rio Grande do Sul' },
  { sigla: 'MS', codigo_ibge: '50', nome: 'Mato Grosso do Sul' },
  { sigla: 'MT', codigo_ibge: '51', nome: 'Mato Grosso' },
  { sigla: 'GO', codigo_ibge: '52', nome: 'Goiás' },
  { sigla: 'DF', codigo_ibge: '53', nome: 'Distrito Federal' },
];

export const ufByCode = (code: string) => UFS.find((u) => u.codigo_ibge === code);
export const ufBySigla = (sigla: string) => UFS.find((u) => u.sigla === sigla);
