import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DataEnvelope,
  type VerificacaoChavePix,
  VerificacaoChavePix as VerificacaoSchema,
  VerificacaoChavePixInput,
} from '@frete/contracts';
import { documentoDoTitular, lerChavePix, mascararNome } from '@frete/domain';
import { CHAVES_PIX_INEXISTENTES } from '@frete/adapters';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { type ApiDeps } from '../../deps';

export const TAG = 'Cadastros';

const SENTINELAS = Object.entries(CHAVES_PIX_INEXISTENTES)
  .map(([tipo, chave]) => `${tipo} \`${chave}\``)
  .join(', ');

/** The check of a PIX key in the PIX directory (DICT), scope `cadastros`, through the `DiretorioPix` port. */
export const chavesPixRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;
    const config = { scope: 'cadastros' as const };
    const semProvedor = async () => {
      if (!deps.diretorioPix.disponivel) {
        throw new ApiError('provedor_indisponivel', 'no PIX directory (DICT) provider is contracted for this environment yet');
      }
    };

    app.post(
      '/chaves-pix/verificacao',
      {
        config,
        preValidation: semProvedor,
        schema: {
          operationId: 'verificarChavePix',
          tags: [TAG],
          summary: 'Checks a PIX key: who holds it and where',
          description:
            'Body `{ tipo?, chave }`; `tipo` is `cpf`, `cnpj`, `email`, `telefone` or `aleatoria`, inferred when absent (a UUID is a ' +
            'random key, an `@` an e-mail, a leading `+` a phone, 11 digits a CPF, 14 characters a CNPJ). The key is validated per type ' +
            '(CPF/CNPJ check digits, e-mail shape, phone `+55` and 10–11 digits, random key a UUID) and normalized as the directory keeps it. ' +
            "200 with the holder and institution: a person's name is masked (first word whole, then each word's first letter and one `*` " +
            "per hidden letter: `JOAO D* S****`) and its CPF too (`***.982.247-**`); a company's corporate name and CNPJ are public and shown " +
            'in full. 400 `validacao` on `chave` (or `tipo`); 422 `chave_pix_nao_encontrada` when the directory has no such key. Sandbox: ' +
            'simulated and deterministic (the same key always gets the same holder, institution and account type), marked ' +
            `\`verificacao: "simulada"\`; keys not found: ${SENTINELAS}. Production: 503 \`provedor_indisponivel\` while no DICT ` +
            'provider is contracted (ruling 7).',
          body: Type.Ref(VerificacaoChavePixInput),
          response: {
            200: DataEnvelope(Type.Ref(VerificacaoSchema)),
            ...errors(400, 422, 503, 'chave_pix_nao_encontrada', 'provedor_indisponivel'),
          },
        },
      },
      async (request) => {
        const body = request.body as VerificacaoChavePixInput;
        const chave = lerChavePix(body.tipo, body.chave);
        const r = await deps.diretorioPix.consultarChave(chave);
        if (!r) throw new ApiError('chave_pix_nao_encontrada', `the PIX directory has no ${chave.tipo} key '${chave.valor}'`);
        const pessoa = r.titular.tipo_pessoa === 'fisica';
        const data: VerificacaoChavePix = {
          tipo: r.tipo,
          chave: r.chave,
          titular: {
            tipo_pessoa: r.titular.tipo_pessoa,
            nome: pessoa ? mascararNome(r.titular.nome) : r.titular.nome,
            documento: documentoDoTitular(r.titular.documento),
          },
          banco: r.banco,
          tipo_conta: r.tipo_conta,
          ...(r.verificacao ? { verificacao: r.verificacao } : {}),
        };
        return { data, environment: env };
      },
    );
  };
