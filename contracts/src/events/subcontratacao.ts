import { Type, type Static } from '@sinclair/typebox';
import { ModoSubcontratacao } from './contra-cte';

/** A counter-CT-e took its place against the contractor's key, in its mode (batch rule 7). */
export const SubcontratacaoReservada = Type.Object({
  company_id: Type.String(),
  chave: Type.String(),
  modo: ModoSubcontratacao,
  cte_id: Type.String(),
  inicio_ibge: Type.String(),
  fim_ibge: Type.String(),
});
export type SubcontratacaoReservada = Static<typeof SubcontratacaoReservada>;

/** The counter-CT-e was cancelled or refused: it no longer holds the key. */
export const SubcontratacaoLiberada = Type.Object({
  company_id: Type.String(),
  chave: Type.String(),
  cte_id: Type.String(),
  motivo: Type.Union([Type.Literal('cancelado'), Type.Literal('rejeitado')]),
});
export type SubcontratacaoLiberada = Static<typeof SubcontratacaoLiberada>;

/** A full counter-CT-e of the key had an installment paid (ruling 8). */
export const SubcontratacaoPaga = Type.Object({ company_id: Type.String(), chave: Type.String(), cte_id: Type.String() });
export type SubcontratacaoPaga = Static<typeof SubcontratacaoPaga>;
