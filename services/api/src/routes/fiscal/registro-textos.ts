import { type ErrorCode } from '@frete/contracts';

/**
 * The words drivers and vehicles share: a registry keyed by one field (`chave`: `CPF`, `plate`), refusing a key already
 * active with `duplicado`; `corpo` describes the body of POST and PUT.
 */
export const textosDoCadastro = (o: {
  nome: string;
  plural: string;
  chave: string;
  duplicado: ErrorCode;
  corpo: string;
  /** The OpenAPI operation ids, one per route. */
  operationIds: { cadastrar: string; listar: string; ler: string; alterar: string; remover: string };
}) => {
  const ids = o.operationIds;
  const corpo =
    `${o.corpo} 400 \`validacao\` names each invalid field in \`error.details.fields\`; 422 \`${o.duplicado}\` when another ` +
    `active ${o.nome} of the company has the ${o.chave}.`;
  return {
    docs: {
      cadastrar: {
        operationId: ids.cadastrar,
        summary: `Registers a ${o.nome}`,
        description: `201 with the ${o.nome} and its new integer id. ${corpo}`,
      },
      listar: { operationId: ids.listar, summary: `Lists the company's ${o.plural} by id` },
      ler: { operationId: ids.ler, summary: `One ${o.nome} of the company` },
      alterar: {
        operationId: ids.alterar,
        summary: `Replaces the ${o.nome}'s data`,
        description: `200 with the ${o.nome}. Every editable field is replaced: an absent field becomes null. ${corpo}`,
      },
      remover: {
        operationId: ids.remover,
        summary: `Removes a ${o.nome} from the registry`,
        description: `204 with no body. The ${o.chave} may be registered again afterwards, under a new id.`,
      },
    },
    duplicado: o.duplicado,
    naoEncontrado: (id: string) => `${o.nome} ${id} not found`,
  };
};
