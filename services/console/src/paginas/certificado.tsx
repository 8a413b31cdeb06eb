import { type FastifyRequest } from 'fastify';
import { Rejection } from '@frete/domain';
import { type CertificadoRow } from '@frete/projections';
import { contextoDe } from '../contexto';
import { type ConsoleDeps } from '../deps';
import { Campo, Formulario } from '../html/componentes';
import { CorpoRecusado, lerPartes } from '../multipart';
import { mensagemDe } from '../mensagens';

/** The API's limit for the A1 file (services/api/src/routes/fiscal/certificado.ts). */
const MAX_ARQUIVO = 10 * 1024 * 1024;
/** Within this many days of its end the certificate is flagged. */
export const DIAS_DE_AVISO = 30;

export interface EstadoDoCertificado {
  erro: string | null;
}

/** The handler's refusals in the words of the person who sent the file. */
const MOTIVOS: Record<string, string> = {
  certificado_senha_incorreta: 'A senha não abre este certificado.',
  certificado_invalido: 'O arquivo não é um certificado A1 utilizável (PKCS#12 com chave e CNPJ).',
  certificado_expirado: 'O certificado está vencido.',
  certificado_cnpj_divergente: 'O CNPJ do certificado não é o da empresa.',
};

const data = (d: Date) => d.toISOString().slice(0, 10).split('-').reverse().join('/');

/** Null when the file was taken; otherwise the page's status and reason. */
export async function enviarCertificado(
  request: FastifyRequest,
  deps: ConsoleDeps,
  companyCnpj: string,
): Promise<{ status: 400 | 413 | 422; mensagem: string } | null> {
  let partes;
  try {
    partes = await lerPartes(request, { fileSize: MAX_ARQUIVO, files: 1 });
  } catch (err) {
    if (err instanceof CorpoRecusado) return { status: err.status, mensagem: err.message };
    throw err;
  }
  const arquivo = partes.find((p) => p.tipo === 'arquivo' && p.nome === 'certificado');
  const senha = partes.find((p) => p.tipo === 'campo' && p.nome === 'senha');
  if (!arquivo || arquivo.tipo !== 'arquivo' || arquivo.conteudo.length === 0) {
    return { status: 400, mensagem: 'Escolha o arquivo do certificado (.pfx ou .p12).' };
  }
  if (!/\.(pfx|p12)$/i.test(arquivo.arquivo)) return { status: 400, mensagem: 'O arquivo deve ser .pfx ou .p12.' };
  if (!senha || senha.tipo !== 'campo') return { status: 400, mensagem: 'Informe a senha do certificado.' };
  try {
    await deps.handlers.certificado.enviar(contextoDe(request, deps), companyCnpj, {
      file: arquivo.conteudo,
      filename: arquivo.arquivo,
      password: senha.valor,
    });
  } catch (err) {
    if (!(err instanceof Rejection)) throw err;
    const motivo = MOTIVOS[err.code];
    return { status: 422, mensagem: motivo ?? mensagemDe(err.code) };
  }
  return null;
}

function Validade({ certificado, agora }: { certificado: CertificadoRow; agora: Date }) {
  const dias = Math.floor((certificado.valido_ate.getTime() - agora.getTime()) / 86_400_000);
  if (certificado.valido_ate.getTime() <= agora.getTime()) {
    return (
      <p class="alerta" role="alert">
        O certificado venceu em {data(certificado.valido_ate)}. Sem um certificado válido não é possível emitir: envie um novo.
      </p>
    );
  }
  if (dias < DIAS_DE_AVISO) {
    return (
      <p class="alerta" role="alert">
        O certificado vence em {dias === 0 ? 'menos de um dia' : dias === 1 ? '1 dia' : `${dias} dias`} ({data(certificado.valido_ate)}).
        Envie um novo antes disso.
      </p>
    );
  }
  return <p>Válido por mais {dias} dias.</p>;
}

/** The A1 certificate's metadata (never the file nor the password) and, for an admin, the form that replaces it. */
export function SecaoCertificado(props: {
  certificado: CertificadoRow | null;
  agora: Date;
  admin: boolean;
  csrf: string;
  estado: EstadoDoCertificado;
}) {
  const c = props.certificado;
  return (
    <section aria-labelledby="titulo-certificado">
      <h2 id="titulo-certificado">Certificado A1</h2>
      {c ? (
        <>
          <dl class="dados" aria-label="Certificado atual">
            {(
              [
                ['Titular', c.titular],
                ['CNPJ', c.cnpj],
                ['Emissor', c.emissor],
                ['Número de série', c.serial],
                ['Válido de', data(c.valido_de)],
                ['Válido até', data(c.valido_ate)],
                ['Arquivo', c.nome_arquivo],
              ] as const
            ).map(([rotulo, valor]) => (
              <div key={rotulo}>
                <dt>{rotulo}</dt>
                <dd>{valor}</dd>
              </div>
            ))}
          </dl>
          <Validade certificado={c} agora={props.agora} />
          {props.admin && (
            <Formulario acao="/console/configuracao/certificado/remover" csrf={props.csrf} rotulo="Remover certificado">
              <button type="submit" class="secundario">
                Remover certificado
              </button>
            </Formulario>
          )}
        </>
      ) : (
        <p class="alerta">Nenhum certificado enviado: sem ele não é possível emitir.</p>
      )}
      {props.admin && (
        // A multipart body is read by the route, after the CSRF check: the token goes in the query string.
        <Formulario
          acao={`/console/configuracao/certificado?_csrf=${encodeURIComponent(props.csrf)}`}
          csrf={props.csrf}
          arquivos
          rotulo="Enviar certificado"
        >
          {props.estado.erro && (
            <p class="erros" role="alert">
              {props.estado.erro}
            </p>
          )}
          <Campo
            nome="certificado"
            rotulo="Arquivo do certificado (.pfx ou .p12)"
            tipo="file"
            obrigatorio
            atributos={{ accept: '.pfx,.p12,application/x-pkcs12' }}
          />
          <Campo nome="senha" rotulo="Senha do certificado" tipo="password" obrigatorio autocomplete="off" />
          <button type="submit" class="botao">
            Enviar certificado
          </button>
        </Formulario>
      )}
    </section>
  );
}
