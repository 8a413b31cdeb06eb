/**
 * What NT 2025.001 v1.03 requires of an MDF-e of one CT-e (carga lotação), in `POST /fiscal/mdfe`'s words: the
 * product's NCM (rule F55a, 301) and the contract's payment with its bank (F55b, 302). Spread into a request body.
 */
export const GRUPOS_LOTACAO = {
  produto_predominante: { tipo_carga: '05', descricao: 'PECAS AUTOMOTIVAS', ncm: '87089990' },
  pagamentos: [
    {
      responsavel: { nome: 'EMBARCADORA EXEMPLO SA', documento: '45.997.418/0001-53' },
      componentes: [{ tipo: '04', valor: 1500.5 }],
      valor_contrato: 1500.5,
      banco: { codigo_banco: '001', codigo_agencia: '1234' },
    },
  ],
} as const;
