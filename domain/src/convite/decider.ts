import {
  type ContatoConvite,
  type ConviteTransportadoraInput,
  type DomainEventOf,
  type EventData,
  type FieldError,
} from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { isValidCnpj, normalizeCnpj } from '../fiscal/documents';
import { validarChavePix } from '../fiscal/pix';
import { normalizarTelefone } from '../motorista/decider';

/** How long an invitation stays pending (design): 7 days on the service clock. */
export const CONVITE_VALIDADE_DIAS = 7;
const VALIDADE_MS = CONVITE_VALIDADE_DIAS * 24 * 3_600_000;

/**
 * The invitations of one company to one carrier: stream `convite-<company id>-<cnpj>`, so that "one pending
 * invitation per CNPJ" is settled by the stream's expected revision.
 */
export const conviteStream = (companyId: string, cnpj: string) => `convite-${companyId}-${normalizeCnpj(cnpj)}`;

export type ConviteEvent = DomainEventOf<'convite.enviado'> | DomainEventOf<'convite.expirado'>;

export type ConviteCommand = {
  type: 'EnviarConvite';
  company_id: string;
  /** The inviting company's CNPJ (from the credential). */
  company_cnpj: string;
  /** Drawn by the caller; used only when a new invitation is created. */
  convite_id: string;
  dados: ConviteTransportadoraInput;
  /** The edge looked the CNPJ up: already a carrier customer of the product. */
  transportadora_cadastrada: boolean;
};

export interface ConviteState {
  /** The last invitation sent, unless recorded as expired; it may have expired since (compare `expira_em`). */
  atual: EventData<'convite.enviado'> | null;
}

export interface ConviteNormalizado {
  cnpj: string;
  razao_social: string | null;
  contato: ContatoConvite;
}

const invalid = (fields: FieldError[]): Rejection =>
  new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });

/** The input judged and normalized; every invalid field is reported at once as 400 `validacao`. */
export function normalizarConvite(input: ConviteTransportadoraInput): ConviteNormalizado {
  const fields: FieldError[] = [];
  const cnpj = normalizeCnpj(input.cnpj.trim());
  if (!isValidCnpj(cnpj)) {
    fields.push({ field: 'cnpj', message: /^[0-9A-Z]{14}$/.test(cnpj) ? 'CNPJ check digits do not match' : 'not a CNPJ (14 characters)' });
  }
  const razao = input.razao_social?.trim().replace(/\s+/g, ' ') ?? null;
  if (razao !== null && razao.length < 2) fields.push({ field: 'razao_social', message: 'at least 2 characters' });
  const nome = input.contato.nome.trim().replace(/\s+/g, ' ');
  if (nome.length < 2) fields.push({ field: 'contato.nome', message: 'at least 2 characters' });
  // The PIX directory's e-mail rule is the product's one rule for an e-mail address.
  const email = validarChavePix('email', input.contato.email);
  if (!email.ok) fields.push({ field: 'contato.email', message: 'not an e-mail address' });
  let telefone: string | null = null;
  if (input.contato.telefone !== undefined && input.contato.telefone !== null) {
    telefone = normalizarTelefone(input.contato.telefone);
    if (!telefone) fields.push({ field: 'contato.telefone', message: '10 or 11 digits, optionally after +55' });
  }
  if (fields.length > 0) throw invalid(fields);
  return { cnpj, razao_social: razao, contato: { nome, email: email.ok ? email.valor : '', telefone } };
}

export const conviteDecider: Decider<ConviteCommand, ConviteState, ConviteEvent> = {
  initialState: { atual: null },
  decide(command, state, ctx) {
    const dados = normalizarConvite(command.dados);
    if (dados.cnpj === normalizeCnpj(command.company_cnpj)) {
      throw new Rejection('convite_invalido', "a company cannot invite itself: the CNPJ is the authenticated company's", {
        fields: [{ field: 'cnpj', message: "the authenticated company's own CNPJ" }],
      });
    }
    if (command.transportadora_cadastrada) {
      throw new Rejection(
        'transportadora_ja_cadastrada',
        `CNPJ ${dados.cnpj} is already a carrier customer: there is nothing to invite it to`,
        {
          fields: [{ field: 'cnpj', message: 'already a carrier customer' }],
        },
      );
    }
    const atual = state.atual;
    // Idempotent while pending: the same invitation again, nothing appended (the first contact stays).
    if (atual && ctx.now.getTime() < Date.parse(atual.expira_em)) return [];
    const events: ConviteEvent[] = [];
    if (atual) {
      events.push({
        type: 'convite.expirado',
        data: { company_id: command.company_id, convite_id: atual.convite_id, cnpj: atual.cnpj, expirado_em: atual.expira_em },
      });
    }
    events.push({
      type: 'convite.enviado',
      data: {
        company_id: command.company_id,
        convite_id: command.convite_id,
        cnpj: dados.cnpj,
        razao_social: dados.razao_social,
        contato: dados.contato,
        enviado_em: ctx.now.toISOString(),
        expira_em: new Date(ctx.now.getTime() + VALIDADE_MS).toISOString(),
      },
    });
    return events;
  },
  evolve(state, event) {
    switch (event.type) {
      case 'convite.enviado':
        return { atual: event.data };
      case 'convite.expirado':
        return state.atual?.convite_id === event.data.convite_id ? { atual: null } : state;
    }
  },
};

/** The state a stored invitation shows at `now`: a pending one whose `expira_em` has passed is `expirado`. */
export function estadoConvite(estado: 'pendente' | 'aceito' | 'expirado', expiraEm: Date, now: Date): 'pendente' | 'aceito' | 'expirado' {
  return estado === 'pendente' && expiraEm.getTime() <= now.getTime() ? 'expirado' : estado;
}
