import { type Balcao, conferirAmbiente, mensagemDoPedido, type Pedido, type Resposta, retorno, textoDe, validarMensagem } from './pedido';
import { procEvento, retornoConsulta } from './retornos';

/**
 * `CTeConsultaV4` / `MDFeConsulta` (`consSitCTe`/`consSitMDFe`): where the document stands (100, 101, 110, 132, 217,
 * 105…), its protocol byte for byte, and one `procEventoCTe`/`procEventoMDFe` per registered event: the signed event
 * as received and the authority's `retEventoCTe`/`retEventoMDFe`, both byte for byte.
 */
export async function consulta(pedido: Pedido, balcao: Balcao): Promise<Resposta> {
  const m = pedido.modelo;
  const cte = m === 'cte';
  const { el, bruto } = mensagemDoPedido(pedido, cte ? 'consSitCTe' : 'consSitMDFe');
  await validarMensagem(balcao, m, bruto, cte ? 'consSitCTe_v4.00.xsd' : 'consSitMDFe_v3.00.xsd');
  conferirAmbiente(balcao, m, el);
  const chave = textoDe(el, cte ? 'chCTe' : 'chMDFe') ?? '';
  const r = cte
    ? await balcao.autoridade.consultarCte(chave, pedido.remetente)
    : await balcao.autoridade.consultarMdfe(chave, pedido.remetente);
  const c = balcao.cabecalho;
  switch (r.tipo) {
    case 'encontrado': {
      const recebidos = await balcao.simulada.eventosRecebidos(chave);
      // An event registered before the authority kept what it received has no procEvento to show.
      const procs = r.eventos.flatMap((e) => {
        const evento = recebidos.get(e.idEvento);
        return evento === undefined ? [] : [procEvento(m, evento, e.xml)];
      });
      return retorno(retornoConsulta(m, c, r.cStat, r.xMotivo, r.protocolo.xml, procs));
    }
    case 'nao_encontrado':
    case 'em_processamento':
    case 'rejeitado':
      return retorno(retornoConsulta(m, c, r.cStat, r.xMotivo));
    case 'sem_resposta':
      return { tipo: 'sem_resposta' };
  }
}
