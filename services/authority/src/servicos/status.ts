import { dhSaoPaulo } from '@frete/domain';
import { type Balcao, conferirAmbiente, mensagemDoPedido, type Pedido, type Resposta, retorno, textoDe, validarMensagem } from './pedido';
import { retornoStatus } from './retornos';

/**
 * `CTeStatusServicoV4` / `MDFeStatusServico` (`consStatServCTe`/`consStatServMDFe`): the rules' status of the
 * authorizer for the UF asked. The CT-e request names its UF; the MDF-e one does not, so its header's `cUF` (or the
 * authorizer's own) is asked.
 */
export async function statusServico(pedido: Pedido, balcao: Balcao): Promise<Resposta> {
  const m = pedido.modelo;
  const cte = m === 'cte';
  const { el, bruto } = mensagemDoPedido(pedido, cte ? 'consStatServCTe' : 'consStatServMDFe');
  await validarMensagem(balcao, m, bruto, cte ? 'consStatServCTe_v4.00.xsd' : 'consStatServMDFe_v3.00.xsd');
  conferirAmbiente(balcao, m, el);
  const doCabecalho = textoDe(pedido.cabecalho, 'cUF');
  const cUF = cte ? textoDe(el, 'cUF')! : doCabecalho && /^[0-9]{2}$/.test(doCabecalho) ? doCabecalho : balcao.cabecalho.cUF;
  const r = await balcao.autoridade.statusServico(m, cUF, pedido.remetente);
  const c = balcao.cabecalho;
  switch (r.tipo) {
    case 'status':
      return retorno(retornoStatus(m, { ...c, verAplic: r.verAplic }, r));
    case 'rejeitado':
      return retorno(retornoStatus(m, c, { cStat: r.cStat, xMotivo: r.xMotivo, cUF, dhRecbto: dhSaoPaulo(balcao.agora()) }));
    case 'sem_resposta':
      return { tipo: 'sem_resposta' };
  }
}
