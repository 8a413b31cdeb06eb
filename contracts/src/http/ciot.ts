import { Type, type Static } from '@sinclair/typebox';
import { Environment } from './common';
import { Local } from './cte-rascunho';
import { CiotStatus } from '../events/ciot';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

const Documento = Type.String({
  minLength: 11,
  maxLength: 18,
  description: 'CNPJ (numeric or alphanumeric) or CPF, with or without mask (check digits validated)',
});
const Nome = Type.String({ minLength: 2, maxLength: 60 });
const Cpf = Type.String({ minLength: 11, maxLength: 14, description: 'CPF, with or without punctuation (check digits validated)' });
const Placa = Type.String({
  minLength: 7,
  maxLength: 8,
  description: 'Brazilian plate, old (ABC1234) or Mercosur (ABC1D23); hyphen and case ignored',
});
const Rntrc = Type.String({ pattern: '^[0-9]{8,9}$', description: "RNTRC of the vehicle's owner, 8 or 9 digits" });
const Reais = (description: string) => Type.Number({ minimum: 0.01, maximum: 99_999_999.99, multipleOf: 0.01, description });
const PesoKg = Type.Number({
  exclusiveMinimum: 0,
  maximum: 999_999,
  multipleOf: 0.001,
  description: 'Gross weight in kg (up to 3 decimals)',
});

const Parte = Type.Object({ documento: Documento, nome: Nome }, { additionalProperties: false });
const VeiculoCiot = Type.Object({ placa: Placa, rntrc: Type.Optional(Rntrc) }, { additionalProperties: false });
const Veiculos = Type.Array(VeiculoCiot, { minItems: 1, maxItems: 10, description: '1 to 10 vehicles (the first is the traction unit)' });
const MotoristaCiot = Type.Object({ cpf: Cpf, nome: Nome }, { additionalProperties: false });

/**
 * `POST /fiscal/ciot` (spec section 2 `DeclaracaoCiot`, ruling 25): a full-load or fractioned transport operation in
 * the company's own name. `parcelas`, `vale_pedagio.pracas` and `carga.tipo` `tac_agregado` are recognised only to be
 * refused: the operation is recorded as `bloqueado` (422 `declaracao_bloqueada`, reason `perfil_nao_coberto`).
 */
export const DeclaracaoCiot = Type.Object(
  {
    referencia_externa: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'Your reference, unique per company (reuse: 400 `validacao`). Sandbox sentinels: `CIOT-PENDENTE` (202 `sent`), ' +
          '`CIOT-RECUSAR` (422 `declaracao_recusada`); the two sentinels may be repeated in the sandbox',
      }),
    ),
    contratado: Type.Object(
      { documento: Documento, nome: Type.Optional(Nome) },
      {
        additionalProperties: false,
        description: 'The contracted carrier: must be the authenticated company (CNPJ), else 422 `declaracao_bloqueada`',
      },
    ),
    carga: Type.Object(
      {
        tipo: Type.Union([Type.Literal('lotacao'), Type.Literal('fracionada'), Type.Literal('tac_agregado')], {
          description:
            '`lotacao` (full load) or `fracionada` (fractioned); `tac_agregado` is not covered by this route (422 `declaracao_bloqueada`)',
        }),
        peso_kg: PesoKg,
        contratantes: Type.Optional(
          Type.Array(Parte, {
            maxItems: 100,
            description: 'The contracting parties; required and non-empty when `tipo` is `fracionada`',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    rota: Type.Object(
      {
        origem: Type.Ref(Local),
        destino: Type.Ref(Local),
        trechos: Type.Optional(
          Type.Array(Type.Object({ coleta: Type.Ref(Local), entrega: Type.Ref(Local) }, { additionalProperties: false }), {
            maxItems: 100,
            description: 'Up to 100 collection/delivery pairs',
          }),
        ),
      },
      { additionalProperties: false, description: 'Route ends as in ruling 19 (IBGE pair; unknown: 400 naming the field)' },
    ),
    veiculos: Veiculos,
    documentos_fiscais: Type.Array(
      Type.Object(
        {
          chave: Type.Optional(
            Type.String({ pattern: '^[0-9]{6}[A-Z0-9]{12}[0-9]{26}$', description: 'Access key (44 characters, check digit validated)' }),
          ),
          numero: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
          remetente: Parte,
          destinatario: Parte,
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100, description: '1 to 100 fiscal documents, each with sender and recipient' },
    ),
    valores: Type.Object(
      {
        frete: Reais('Freight value of the operation (R$)'),
        parcelas: Type.Optional(
          Type.Array(
            Type.Object(
              { valor: Reais('Installment value'), vencimento: Type.Optional(Type.String({ format: 'date' })) },
              { additionalProperties: false },
            ),
            { maxItems: 12, description: 'Freight installments: not covered by this route (422 `declaracao_bloqueada`)' },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    motorista: MotoristaCiot,
    vale_pedagio: Type.Optional(
      Type.Object(
        {
          valor: Type.Optional(Reais('Toll pass value')),
          pracas: Type.Optional(
            Type.Array(
              Type.Object(
                { nome: Nome, codigo: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })) },
                { additionalProperties: false },
              ),
              {
                maxItems: 100,
                description: 'Toll plazas: a toll pass with plazas is not covered by this route (422 `declaracao_bloqueada`)',
              },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, $id: 'DeclaracaoCiot' },
);
export type DeclaracaoCiot = Static<typeof DeclaracaoCiot>;

const MunicipioView = Type.Object({ codigo_ibge: Type.String(), municipio: Type.String(), uf: Type.String() });
const ParteView = Type.Object({ documento: Type.String(), nome: Type.String() });

export const DeclaracaoCiotView = Type.Object(
  {
    contratado: Type.Object({ documento: Type.String(), nome: nullable(Type.String()) }),
    carga: Type.Object({ tipo: Type.String(), peso_kg: Type.Number(), contratantes: Type.Array(ParteView) }),
    rota: Type.Object({
      origem: MunicipioView,
      destino: MunicipioView,
      trechos: Type.Array(Type.Object({ coleta: MunicipioView, entrega: MunicipioView })),
    }),
    veiculos: Type.Array(Type.Object({ placa: Type.String(), rntrc: nullable(Type.String()) })),
    documentos_fiscais: Type.Array(
      Type.Object({ chave: nullable(Type.String()), numero: nullable(Type.String()), remetente: ParteView, destinatario: ParteView }),
    ),
    valores: Type.Object({
      frete: Type.Number(),
      parcelas: Type.Array(Type.Object({ valor: Type.Number(), vencimento: nullable(Type.String()) })),
    }),
    motorista: Type.Object({ cpf: Type.String(), nome: Type.String() }),
    vale_pedagio: nullable(
      Type.Object({
        valor: nullable(Type.Number()),
        pracas: Type.Array(Type.Object({ nome: Type.String(), codigo: nullable(Type.String()) })),
      }),
    ),
    observacoes: nullable(Type.String({ description: "Anchored on a CT-e: the CT-e's observations (`xObs`), sent with the declaration" })),
  },
  { $id: 'DeclaracaoCiotView', description: 'The declaration as recorded (documents without mask, municipalities from the IBGE table)' },
);

/** `RespostaCiot` (spec section 2, ruling 25): a CIOT operation, declared alone or anchored on an own CT-e. */
export const RespostaCiot = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'ciot_uuid' }),
    environment: Environment,
    status: Type.Ref(CiotStatus),
    ciot: nullable(Type.String({ pattern: '^[0-9]{12}$', description: 'The CIOT number (12 digits), once registered' })),
    codigo_verificacao: nullable(Type.String({ pattern: '^[0-9]{4}$', description: 'Verification code (4 digits), once registered' })),
    motivo: nullable(Type.String({ description: 'The stored reason of a `bloqueado`, `recusado` or still `sent` operation' })),
    motivo_codigo: nullable(
      Type.String({
        description:
          "`bloqueado`: `contratado_divergente`, `perfil_nao_coberto` or `provedor_indisponivel`; `recusado`: the provider's code",
      }),
    ),
    referencia_externa: nullable(Type.String()),
    origem: Type.Union([Type.Literal('declaracao'), Type.Literal('cte')], {
      description: '`declaracao` (POST /fiscal/ciot) or `cte` (anchored on an own CT-e)',
    }),
    cte: nullable(Type.Object({ id: Type.String({ format: 'uuid' }), access_key: Type.String() })),
    protocolo: nullable(
      Type.String({ description: "The provider's protocol of the last act (declaration, rectification, cancellation, closing)" }),
    ),
    declaracao: Type.Ref(DeclaracaoCiotView),
    registrado_em: nullable(Type.String({ format: 'date-time' })),
    viagem_iniciada_em: nullable(Type.String({ format: 'date-time' })),
    retificacoes: Type.Integer({ description: 'How many rectifications were registered' }),
    cancelamento: nullable(Type.Object({ justificativa: Type.String(), cancelado_em: Type.String({ format: 'date-time' }) })),
    encerramento: nullable(Type.Object({ peso_entregue_kg: nullable(Type.Number()), encerrado_em: Type.String({ format: 'date-time' }) })),
    historico: Type.Array(
      Type.Object({
        evento: Type.String({
          description: 'declarada, bloqueada, pendente, registrada, recusada, viagem_iniciada, retificada, cancelada, encerrada',
        }),
        em: Type.String({ format: 'date-time' }),
        protocolo: nullable(Type.String()),
        motivo: nullable(Type.String()),
      }),
    ),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'RespostaCiot', description: 'A CIOT operation (simulated in the sandbox: nothing is registered at the regulator)' },
);

export const CiotIdParam = Type.Object({ ciot_uuid: Type.String({ description: "The CIOT operation's id (UUID)" }) });

/**
 * The body of `POST /fiscal/cte/{cte_uuid}/ciot/validacao` and `.../ciot/emissao`: what the CT-e does not carry.
 * Route, documents, sender and recipient, weight and freight value come from the CT-e; the contracted party is the
 * company; for `fracionada` the CT-e's taker is the contracting party.
 */
export const CteCiotInput = Type.Object(
  {
    motorista: Type.Optional(
      Type.Object(
        { cpf: Cpf, nome: Type.Optional(Nome) },
        { additionalProperties: false, description: 'The driver; `nome` defaults from the driver registry (/fiscal/motoristas)' },
      ),
    ),
    veiculos: Type.Optional(Veiculos),
    carga: Type.Optional(
      Type.Object(
        {
          tipo: Type.Optional(Type.Union([Type.Literal('lotacao'), Type.Literal('fracionada')], { description: 'Default `lotacao`' })),
          peso_kg: Type.Optional(PesoKg),
        },
        { additionalProperties: false, description: "`peso_kg` defaults from the CT-e's cargo quantities in KG or TON" },
      ),
    ),
    valores: Type.Optional(Type.Object({ frete: Type.Optional(Reais("Default: the CT-e's vTPrest")) }, { additionalProperties: false })),
  },
  { additionalProperties: false, $id: 'CteCiotInput' },
);
export type CteCiotInput = Static<typeof CteCiotInput>;

export const CteCiotValidacao = Type.Object(
  {
    cte: Type.Object({ id: Type.String({ format: 'uuid' }), access_key: Type.String() }),
    apto: Type.Boolean({ description: 'True when `POST .../ciot/emissao` with this body would be transmitted' }),
    verificacoes: Type.Array(
      Type.Object({
        codigo: Type.String({
          description:
            'cte_autorizado, modal_rodoviario, rntrc, remetente_destinatario, rota, motorista, veiculos, peso, frete, ciot_em_vigor',
        }),
        ok: Type.Boolean(),
        mensagem: Type.String(),
      }),
    ),
    pendencias: Type.Array(Type.Object({ campo: Type.String(), mensagem: Type.String() }), { description: 'What is missing, by field' }),
    ciot_em_vigor: nullable(Type.Object({ id: Type.String({ format: 'uuid' }), status: Type.Ref(CiotStatus) })),
    declaracao: nullable(
      Type.Ref(DeclaracaoCiotView, { description: 'The declaration that would be sent (null while something is missing)' }),
    ),
  },
  { $id: 'CteCiotValidacao' },
);

export const CiotCancelamentoInput = Type.Object(
  { justificativa: Type.String({ minLength: 15, maxLength: 255, description: '15 to 255 characters' }) },
  { additionalProperties: false, $id: 'CiotCancelamentoInput' },
);
export type CiotCancelamentoInput = Static<typeof CiotCancelamentoInput>;

export const CiotRetificacaoInput = Type.Object(
  {
    veiculos: Type.Optional(Veiculos),
    motorista: Type.Optional(MotoristaCiot),
    valores: Type.Optional(Type.Object({ frete: Reais('New freight value') }, { additionalProperties: false })),
    carga: Type.Optional(Type.Object({ peso_kg: PesoKg }, { additionalProperties: false })),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    $id: 'CiotRetificacaoInput',
    description: 'At least one group; the groups given replace the registered ones',
  },
);
export type CiotRetificacaoInput = Static<typeof CiotRetificacaoInput>;

export const CiotEncerramentoInput = Type.Object(
  { peso_entregue_kg: Type.Optional(PesoKg) },
  { additionalProperties: false, $id: 'CiotEncerramentoInput', description: 'Optional body' },
);
export type CiotEncerramentoInput = Static<typeof CiotEncerramentoInput>;

export const CIOT_SCHEMAS = [
  CiotStatus,
  DeclaracaoCiot,
  DeclaracaoCiotView,
  RespostaCiot,
  CteCiotInput,
  CteCiotValidacao,
  CiotCancelamentoInput,
  CiotRetificacaoInput,
  CiotEncerramentoInput,
];
