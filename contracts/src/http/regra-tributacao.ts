import { Type, type Static } from '@sinclair/typebox';
import { PageQuery, Uf } from './common';

/** The CSTs of CT-e 4.00's ICMS groups, plus `SN` for ICMSSN (Simples Nacional). */
export const ICMS_CSTS = ['00', '20', '40', '41', '51', '60', '90', 'SN'] as const;
export type IcmsCst = (typeof ICMS_CSTS)[number];

/** ide/tpServ of the service the rule is for: 0 normal, 1 subcontracting, 2 redispatch, 3 intermediate redispatch. */
export const TP_SERV_REGRA = [0, 1, 2, 3] as const;

/**
 * A rule's destination: a UF, or `EX` for an export (UF fim EX, cMunFim 9999999 in CT-e 4.00), whose CFOP starts with 7
 * (MOC G050: 7358 is the transport service's).
 */
const UfDestino = Type.Union([...Uf.anyOf, Type.Literal('EX')], {
  description: 'Brazilian state (UF) of the destination, or `EX` for an export (service ending abroad: CFOP 7xxx)',
});

const Percentual = (description: string) =>
  Type.Number({ minimum: 0, maximum: 100, description: `${description}; percent, 0–100, up to 2 decimals` });

const TpServ = Type.Integer({
  minimum: 0,
  maximum: 3,
  description: 'ide/tpServ: 0 normal, 1 subcontracting, 2 redispatch, 3 intermediate redispatch. Absent: the general rule of the UF pair',
});

export const IcmsRegraInput = Type.Object(
  {
    cst: Type.Union(
      ICMS_CSTS.map((c) => Type.Literal(c)),
      {
        description:
          '00 normal (ICMS00); 20 reduced base (ICMS20); 40 exempt, 41 not taxed, 51 deferred (ICMS45); ' +
          '60 charged by tax substitution (ICMS60); 90 other (ICMS90/ICMSOutraUF); SN Simples Nacional (ICMSSN)',
      },
    ),
    aliquota: Type.Optional(
      Percentual('pICMS (for 60: pICMSSTRet). Required and above 0 for 00, 20 and 60; required for 90; absent or 0 for 40, 41, 51 and SN'),
    ),
    reducao_base: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 100,
        description: 'pRedBC, percent, up to 2 decimals. Required (above 0, below 100) for CST 20; optional for 90; refused for the others',
      }),
    ),
  },
  { additionalProperties: false },
);

export const IbsCbsRegraInput = Type.Object(
  {
    cst: Type.String({ pattern: '^[0-9]{3}$', description: 'IBSCBS/CST, 3 digits' }),
    cclass_trib: Type.String({ pattern: '^[0-9]{6}$', description: 'IBSCBS/cClassTrib, 6 digits' }),
    aliquota_ibs_uf: Percentual('gIBSUF/pIBSUF'),
    aliquota_ibs_mun: Percentual('gIBSMun/pIBSMun'),
    aliquota_cbs: Percentual('gCBS/pCBS'),
    inscricao_suframa: Type.Optional(
      Type.String({
        pattern: '^[0-9]{8,9}$',
        description:
          "The emitter's SUFRAMA registration, written as `emit/ISUFEmit` (NT 2026.002). Required with `aliquota_cbs` 0 between " +
          'UFs of the ZFM/ALC (AC, AM, AP, RO, RR), where NT 2025.001 v1.11a lets the CBS be zero',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'IBS/CBS group of the tax reform (IBSCBS). Rates the authority rejects for a CT-e emitted now (NT 2025.001 v1.11a, ' +
      '316/321/326: in 2026 IBS UF 0.1%, IBS Mun 0%, CBS 0.9%) are refused with 422 `aliquota_rejeitada_autoridade`',
  },
);

/** `POST` and `PUT /fiscal/regras-tributacao`. Smallest body (ruling 20): `{ uf_origem, uf_destino, icms: { cst, aliquota } }`. */
export const RegraTributacaoInput = Type.Object(
  {
    uf_origem: Uf,
    uf_destino: UfDestino,
    tp_serv: Type.Optional(TpServ),
    cfop: Type.Optional(
      Type.String({
        pattern: '^[0-9]{4}$',
        description: 'CFOP of the service, 4 digits; 5xxx when origin and destination are the same UF, 6xxx otherwise, 7xxx for `EX`',
      }),
    ),
    icms: IcmsRegraInput,
    ibs_cbs: Type.Optional(IbsCbsRegraInput),
  },
  { additionalProperties: false },
);
export type RegraTributacaoInput = Static<typeof RegraTributacaoInput>;

/** A registered tax rule; rates are percentages with up to two decimals. */
export const RegraTributacao = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'Per company, never reused' }),
    uf_origem: Uf,
    uf_destino: UfDestino,
    tp_serv: Type.Union([TpServ, Type.Null()], { description: 'null: general rule of the UF pair' }),
    cfop: Type.Union([Type.String(), Type.Null()]),
    icms: Type.Object({
      cst: Type.String({ description: 'One of 00, 20, 40, 41, 51, 60, 90, SN' }),
      aliquota: Type.Number({ description: 'percent' }),
      reducao_base: Type.Union([Type.Number({ description: 'percent' }), Type.Null()]),
    }),
    ibs_cbs: Type.Union([
      Type.Object({
        cst: Type.String(),
        cclass_trib: Type.String(),
        aliquota_ibs_uf: Type.Number(),
        aliquota_ibs_mun: Type.Number(),
        aliquota_cbs: Type.Number(),
        inscricao_suframa: Type.Optional(Type.String({ description: 'emit/ISUFEmit' })),
      }),
      Type.Null(),
    ]),
    criada_em: Type.String({ format: 'date-time' }),
    atualizada_em: Type.String({ format: 'date-time' }),
  },
  { title: 'RegraTributacao', description: 'Tax rule (regra de tributação) of a UF → UF route, optionally for one service type' },
);
export type RegraTributacao = Static<typeof RegraTributacao>;

export const RegraTributacaoQuery = Type.Object({
  uf_origem: Type.Optional(Uf),
  uf_destino: Type.Optional(UfDestino),
  tp_serv: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 3, description: 'Rules of exactly this service type (general rules are not included)' }),
  ),
  ...PageQuery.properties,
});
export type RegraTributacaoQuery = Static<typeof RegraTributacaoQuery>;

export const RegraAplicavelQuery = Type.Object({
  uf_origem: Uf,
  uf_destino: UfDestino,
  tp_serv: Type.Optional(Type.Integer({ minimum: 0, maximum: 3, description: 'Service type; absent: only a general rule can apply' })),
});
export type RegraAplicavelQuery = Static<typeof RegraAplicavelQuery>;
