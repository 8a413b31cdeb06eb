import { type ServicoSefaz } from '@frete/adapters';
import { dhSaoPaulo } from '@frete/domain';
import { consulta } from './consulta';
import { recepcaoEvento } from './evento';
import { naoEncerrados } from './nao-encerrados';
import { type Balcao, type Pedido, RecusaDoPedido, type Resposta, retorno, type Servico } from './pedido';
import { recepcaoSincrona } from './recepcao';
import { retornoSemDados } from './retornos';
import { statusServico } from './status';

export * from './pedido';
export * from './retornos';

const SERVICOS: Record<ServicoSefaz, Servico> = {
  CTeRecepcaoSincV4: recepcaoSincrona,
  MDFeRecepcaoSinc: recepcaoSincrona,
  CTeConsultaV4: consulta,
  MDFeConsulta: consulta,
  CTeRecepcaoEventoV4: recepcaoEvento,
  MDFeRecepcaoEvento: recepcaoEvento,
  CTeStatusServicoV4: statusServico,
  MDFeStatusServico: statusServico,
  MDFeConsNaoEnc: naoEncerrados,
};

/** Runs the service; a refusal of the door (215, 225, 252) is answered in the service's answer element. */
export async function atender(pedido: Pedido, balcao: Balcao): Promise<Resposta> {
  try {
    return await SERVICOS[pedido.servico](pedido, balcao);
  } catch (error) {
    if (!(error instanceof RecusaDoPedido)) throw error;
    return retorno(retornoSemDados(pedido.servico, balcao.cabecalho, error.cStat, error.xMotivo, dhSaoPaulo(balcao.agora())));
  }
}
