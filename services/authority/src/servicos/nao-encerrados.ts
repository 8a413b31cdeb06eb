import { type Balcao, conferirAmbiente, mensagemDoPedido, type Pedido, type Resposta, retorno, textoDe, validarMensagem } from './pedido';
import { retornoNaoEncerrados } from './retornos';

/** `MDFeConsNaoEnc` (`consMDFeNaoEnc`): the emitter's MDF-e not yet closed (111) or none (112). */
export async function naoEncerrados(pedido: Pedido, balcao: Balcao): Promise<Resposta> {
  const { el, bruto } = mensagemDoPedido(pedido, 'consMDFeNaoEnc');
  await validarMensagem(balcao, 'mdfe', bruto, 'consMDFeNaoEnc_v3.00.xsd');
  conferirAmbiente(balcao, 'mdfe', el);
  const documento = textoDe(el, 'CNPJ') ?? textoDe(el, 'CPF') ?? '';
  const c = balcao.cabecalho;
  const r = await balcao.autoridade.consultarMdfeNaoEncerrados(documento, c.cUF, pedido.remetente);
  switch (r.tipo) {
    case 'consultado':
      return retorno(retornoNaoEncerrados(c, r.cStat, r.xMotivo, r.mdfes));
    case 'rejeitado':
      return retorno(retornoNaoEncerrados(c, r.cStat, r.xMotivo));
    case 'sem_resposta':
      return { tipo: 'sem_resposta' };
  }
}
