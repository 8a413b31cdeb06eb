import { type FastifyInstance } from 'fastify';
import { type Environment, type ServicoDistribuicao } from '@frete/contracts';
import { Rejection } from '@frete/domain';
import { type DistribuicaoDaEmpresa, type DistribuicaoServicoRow } from '@frete/projections';
import { contextoDe, redirecionar, sessaoDe } from '../contexto';
import { type ConsoleDeps } from '../deps';
import { paginaDeErro } from '../erros';
import { camposDe } from '../formulario';
import { Formulario, Tabela } from '../html/componentes';
import { mensagemDe } from '../mensagens';
import { podeAdministrar, podeOperar, type SessaoConsole } from '../sessao/sessao';
import { proibido, recusa } from './operacoes-comum';
import { dataHora } from './documentos/formato';

/** The page the distribution's block is on (the inbox: what the distribution brings lands there). */
const AREA = '/console/caixa-de-entrada';

const SERVICO: Record<ServicoDistribuicao, string> = { cte: 'CT-e', nfe: 'NF-e' };

const AMBIENTE: Record<Environment, string> = { homologacao: 'homologação', producao: 'produção' };

/** An instant the service set, or what it means once passed (the table is read later than it was written). */
const ate = (t: Date | null, agora: Date, passado: string) => (t === null ? '—' : t.getTime() <= agora.getTime() ? passado : dataHora(t));

const retorno = (s: DistribuicaoServicoRow) => (s.ultimo_cstat === null ? '—' : `${s.ultimo_cstat} – ${s.ultimo_motivo ?? ''}`.trim());

/**
 * The company's consultation of the national distribution (GET /v1/fiscal/distribuicao's state): on or off, and per
 * service the NSU reached, the next consultation allowed, a block, the last answer. An operator asks now; an admin
 * turns it on or off (as the fiscal configuration, the switch is the admin's).
 */
export function SecaoDistribuicao({
  d,
  sessao,
  csrf,
  ambiente,
  agora,
}: {
  d: DistribuicaoDaEmpresa;
  sessao: SessaoConsole;
  csrf: string;
  ambiente: Environment;
  agora: Date;
}) {
  return (
    <section aria-labelledby="distribuicao">
      <h2 id="distribuicao">Distribuição do Ambiente Nacional</h2>
      <p>
        Os CT-e e as NF-e em que a empresa aparece chegam sozinhos, consultados no Ambiente Nacional: os CT-e vão para a lista acima, as
        NF-e para a lista abaixo.
      </p>
      <p>
        <strong>{d.habilitada ? 'Consulta ligada' : 'Consulta desligada'}</strong>
        {d.escolhida ? '.' : ` (padrão do ambiente de ${AMBIENTE[ambiente]}).`}
      </p>
      <Tabela
        legenda="Distribuição por serviço"
        vazio="Nenhum serviço."
        linhas={d.servicos}
        colunas={[
          { titulo: 'Serviço', celula: (s) => SERVICO[s.servico] },
          { titulo: 'Último NSU', celula: (s) => <code>{s.ultimo_nsu}</code> },
          { titulo: 'NSU máximo', celula: (s) => (s.max_nsu === null ? '—' : <code>{s.max_nsu}</code>) },
          { titulo: 'Próxima consulta', celula: (s) => ate(s.proxima_consulta, agora, 'Já permitida') },
          { titulo: 'Bloqueio até', celula: (s) => ate(s.bloqueado_ate, agora, 'Sem bloqueio') },
          { titulo: 'Último retorno', celula: retorno },
          { titulo: 'Última consulta', celula: (s) => dataHora(s.ultima_consulta_em) },
          {
            titulo: 'Em andamento',
            celula: (s) => (s.consulta_em_andamento ? `Pedida em ${dataHora(s.consulta_em_andamento.solicitada_em)}` : '—'),
          },
          {
            titulo: 'Última falha',
            celula: (s) => (s.ultima_falha ? `${dataHora(s.ultima_falha.falhou_em)}: ${s.ultima_falha.motivo}` : '—'),
          },
        ]}
      />
      {podeOperar(sessao.papel) && d.habilitada && (
        <Formulario acao={`${AREA}/distribuicao/consultas`} csrf={csrf} rotulo="Consultar a distribuição agora">
          <button type="submit">Consultar agora</button>
        </Formulario>
      )}
      {podeAdministrar(sessao.papel) && (
        <Formulario acao={`${AREA}/distribuicao`} csrf={csrf} rotulo={d.habilitada ? 'Desligar a consulta' : 'Ligar a consulta'}>
          <input type="hidden" name="habilitada" value={d.habilitada ? 'false' : 'true'} />
          <button type="submit">{d.habilitada ? 'Desligar a consulta' : 'Ligar a consulta'}</button>
        </Formulario>
      )}
    </section>
  );
}

/** The block's two actions, through the same handler as PUT and POST /v1/fiscal/distribuicao. */
export function acoesDistribuicao(app: FastifyInstance, deps: ConsoleDeps) {
  app.post('/caixa-de-entrada/distribuicao/consultas', async (request, reply) => {
    const sessao = sessaoDe(request);
    if (!podeOperar(sessao.papel)) return proibido(request, reply);
    try {
      const { consultas } = await deps.handlers.distribuicao.consultar(contextoDe(request, deps), null);
      await deps.readYourWrites.waitFor(sessao.company_id);
      const servicos = consultas.map((c) => SERVICO[c.servico]).join(' e ');
      return redirecionar(reply, AREA, consultas.length > 0 ? `Consulta pedida: ${servicos}.` : 'Nenhuma consulta pedida.');
    } catch (e) {
      if (!(e instanceof Rejection)) throw e;
      const tentarApos = typeof e.details?.tentar_apos === 'string' ? new Date(e.details.tentar_apos) : null;
      if (e.code === 'consulta_bloqueada' && tentarApos) {
        // As the API's 429: the seconds counted on the service clock the wait was decided on.
        const segundos = Math.max(1, Math.ceil((tentarApos.getTime() - deps.clock().getTime()) / 1000));
        reply.header('Retry-After', String(segundos));
        return paginaDeErro(
          request,
          reply,
          429,
          'Consulta em espera',
          `${mensagemDe(e.code)} Próxima consulta permitida em ${dataHora(tentarApos)}.`,
          `${e.code}: ${e.message}`,
        );
      }
      return recusa(request, reply, e);
    }
  });

  app.post('/caixa-de-entrada/distribuicao', async (request, reply) => {
    const sessao = sessaoDe(request);
    if (!podeAdministrar(sessao.papel)) return proibido(request, reply);
    const { habilitada } = camposDe(request.body);
    if (habilitada !== 'true' && habilitada !== 'false') {
      return paginaDeErro(
        request,
        reply,
        400,
        'Pedido inválido',
        'Escolha ligar ou desligar a consulta.',
        `habilitada: ${(habilitada ?? '').slice(0, 20)}`,
      );
    }
    await deps.handlers.distribuicao.alterar(contextoDe(request, deps), habilitada === 'true');
    await deps.readYourWrites.waitFor(sessao.company_id);
    return redirecionar(reply, AREA, habilitada === 'true' ? 'Consulta da distribuição ligada.' : 'Consulta da distribuição desligada.');
  });
}
