import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type FastifyRequest } from 'fastify';
import { CertificateMetadata, CertificateRemoval, DataEnvelope } from '@frete/contracts';
import { certificadoOf } from '@frete/projections';
import { ApiError } from '../../errors';
import { readParts } from '../../multipart';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

const MAX_FILE = 10 * 1024 * 1024;
const FILE_TYPES = ['application/x-pkcs12', 'application/octet-stream'];

interface Upload {
  file: Buffer;
  filename: string;
  password: string;
}

/** Reads the two multipart parts; any shape problem is 400 `validacao` naming the part. */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new ApiError('tipo_de_midia_nao_suportado', 'send multipart/form-data with parts `file` and `cert_pass`');
  }
  let file: { buffer: Buffer; filename: string; mimetype: string } | null = null;
  let password: string | null = null;
  const parts = await readParts(request, {
    fileSize: MAX_FILE,
    files: 1,
    fileTooLarge: 'certificate file over 10 MB',
    tooManyFiles: { field: 'file', message: 'send exactly one file' },
  });
  for (const part of parts) {
    if (part.type === 'file' && part.name === 'file') file = { buffer: part.content, filename: part.filename, mimetype: part.mimetype };
    else if (part.type === 'field' && part.name === 'cert_pass') password = part.value;
  }
  const fields = [
    ...(file ? [] : [{ field: 'file', message: 'required: the .pfx or .p12 file' }]),
    ...(password === null ? [{ field: 'cert_pass', message: 'required: the certificate password' }] : []),
  ];
  if (fields.length > 0) throw new ApiError('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
  if (!/\.(pfx|p12)$/i.test(file!.filename)) {
    throw new ApiError('validacao', 'file: must be a .pfx or .p12 file', {
      fields: [{ field: 'file', message: 'extension must be .pfx or .p12' }],
    });
  }
  if (!FILE_TYPES.includes(file!.mimetype)) {
    throw new ApiError('validacao', `file: content type must be ${FILE_TYPES.join(' or ')}`, {
      fields: [{ field: 'file', message: `content type ${file!.mimetype} not accepted` }],
    });
  }
  if (file!.buffer.length > MAX_FILE) throw new ApiError('payload_muito_grande', 'certificate file over 10 MB');
  return { file: file!.buffer, filename: file!.filename, password: password! };
}

export const certificadoRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;
    const metadata = async (companyId: string) => {
      const c = await certificadoOf(deps.pool, companyId);
      const now = deps.clock().getTime();
      return {
        presente: c !== null,
        titular: c?.titular ?? null,
        cnpj: c?.cnpj ?? null,
        emissor: c?.emissor ?? null,
        serial: c?.serial ?? null,
        valido_de: c?.valido_de.toISOString() ?? null,
        valido_ate: c?.valido_ate.toISOString() ?? null,
        dias_para_expirar: c ? Math.floor((c.valido_ate.getTime() - now) / 86_400_000) : null,
        nome_arquivo: c?.nome_arquivo ?? null,
        enviado_em: c?.enviado_em.toISOString() ?? null,
      };
    };

    app.get(
      '/certificado',
      {
        schema: {
          operationId: 'obterCertificado',
          tags: ['Fiscal'],
          summary: 'Metadata of the A1 certificate; never the file nor the password',
          response: { 200: DataEnvelope(Type.Ref(CertificateMetadata)), ...errors() },
        },
      },
      async (request) => ({ data: await metadata(principalOf(request).companyId), environment: env }),
    );

    app.post(
      '/certificado',
      {
        // The body is multipart, not JSON: the schema documents it, readUpload validates it.
        validatorCompiler: () => () => true,
        schema: {
          operationId: 'enviarCertificado',
          tags: ['Fiscal'],
          summary: 'Sends or replaces the A1 certificate (.pfx/.p12, up to 10 MB)',
          description:
            'The PKCS#12 is opened with `cert_pass`. 422: `certificado_senha_incorreta`, `certificado_invalido` (not a PKCS#12, no key, no CNPJ, more key-derivation work than accepted), ' +
            '`certificado_expirado`, `certificado_cnpj_divergente` (CNPJ root differs from the company), `certificado_autoassinado` (production only: a self-signed ' +
            'certificate such as the sandbox test A1 of `pnpm ops certificate sandbox`). File and password are kept encrypted. ' +
            'In the sandbox a self-signed PKCS#12 naming the CNPJ (common name `NAME:CNPJ` or ICP-Brasil otherName 2.16.76.1.3.3) is accepted.',
          consumes: ['multipart/form-data'],
          body: Type.Object({
            file: Type.String({ format: 'binary', description: '.pfx or .p12; application/x-pkcs12 or application/octet-stream' }),
            cert_pass: Type.String({ description: 'Certificate password (never returned)' }),
          }),
          response: {
            201: DataEnvelope(Type.Ref(CertificateMetadata)),
            ...errors(
              400,
              413,
              415,
              422,
              'certificado_senha_incorreta',
              'certificado_invalido',
              'certificado_expirado',
              'certificado_cnpj_divergente',
              'certificado_autoassinado',
            ),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const upload = await readUpload(request);
        await deps.handlers.certificado.enviar(commandContext(request, deps), p.company.cnpj, upload);
        await deps.readYourWrites.waitFor(p.companyId);
        return reply.status(201).send({ data: await metadata(p.companyId), environment: env });
      },
    );

    app.delete(
      '/certificado',
      {
        schema: {
          operationId: 'removerCertificado',
          tags: ['Fiscal'],
          summary: 'Removes the certificate; idempotent (`removed` false when there was none)',
          response: { 200: DataEnvelope(Type.Ref(CertificateRemoval)), ...errors() },
        },
      },
      async (request) => {
        const removed = await deps.handlers.certificado.remover(commandContext(request, deps));
        return { data: { removed }, environment: env };
      },
    );
  };
