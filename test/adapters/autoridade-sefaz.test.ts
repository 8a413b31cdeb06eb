import {
  destinoSefaz,
  namespaceWsdl,
  AutoridadeFiscalSefaz,
  AutoridadeFiscalSimulada,
  AutoridadeIndisponivel,
  CertificadoRecusadoPelaAutoridade,
  montarCteProc,
} from '@frete/adapters';
import { FiscalSchemas } from '@frete/documents';
import {
  certificadoServidorNaoConfiavel,
  iniciarAutoridadeLocalDeTeste,
  a1DeOutraAc,
  type AutoridadeLocalDeTeste,
} from '../support/autoridade-local';
import {
  EMITENTE,
  assinar,
  cteXml,
  evCancCTe,
  evEncMDFe,
  eventoCteXml,
  eventoMdfeXml,
  mdfeXml,
  type CteOpcoes,
} from '../support/autoridade-xml';
import { type A1, makeA1 } from '../support/certificates';
import { envelope, falhaSoapDe, pedirHttps } from '../support/soap-cliente';
import { autorizado, registrado } from '../support/retorno-autoridade';

const consStatServCTe = (cUF: string) =>
  `<consStatServCTe xmlns="http://www.portalfiscal.inf.br/cte" versao="4.00"><tpAmb>2</tpAmb><cUF>${cUF}</cUF><xServ>STATUS</xServ></consStatServCTe>`;
const consStatServMDFe =
  '<consStatServMDFe xmlns="http://www.portalfiscal.inf.br/mdfe" versao="3.00"><tpAmb>2</tpAmb><xServ>STATUS</xServ></consStatServMDFe>';

/**
 * The `sefaz` adapter against the local authority server over real TLS: every answer mapped to the port's types as the
 * in-process rules give them, protocols byte for byte, and each failure of the channel as the port promises it.
 */

const VALIDADE = { notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2040-01-01T00:00:00Z') };
const a1 = makeA1({ cnpj: EMITENTE, razao: 'TRANSPORTADORA EXEMPLO LTDA', password: 'senha', cnpjIn: 'otherName', ...VALIDADE });
const INICIO = new Date('2026-11-20T13:05:00Z');
const clock = () => INICIO;
const remetente = { companyId: 'empresa-1' };

const schemas = new FiscalSchemas();
let local: AutoridadeLocalDeTeste;
let emProcesso: AutoridadeFiscalSimulada;
const abertos: AutoridadeFiscalSefaz[] = [];

function adaptador(o: { certificado?: A1 | null; confiancaPem?: string; url?: string; timeoutMs?: number } = {}) {
  const certificado = o.certificado === undefined ? a1 : o.certificado;
  const a = new AutoridadeFiscalSefaz({
    ambiente: 'homologacao',
    enderecos: { baseUrl: o.url ?? local.url },
    confiancaPem: o.confiancaPem ?? local.caPem,
    timeoutMs: o.timeoutMs ?? 10_000,
    pausaBaseMs: 20,
    clock: () => new Date(),
    credencial: () =>
      Promise.resolve(certificado ? { certificadoPem: certificado.certificatePem, chavePrivadaPem: certificado.privateKeyPem } : null),
  });
  abertos.push(a);
  return a;
}

beforeAll(async () => {
  local = await iniciarAutoridadeLocalDeTeste({ clock, schemas });
  emProcesso = new AutoridadeFiscalSimulada({ pool: local.pool, clock, schemas });
});
afterAll(async () => {
  await Promise.all(abertos.map((a) => a.close()));
  await local?.close();
  await schemas.close();
});
afterEach(() => local.falhas.limpar());

let proximo = 5000;
const numero = () => proximo++;
const cteAssinado = (o: Partial<CteOpcoes> = {}) => {
  const { chave, xml } = cteXml({ numero: numero(), ...o });
  return { chave, xml: assinar(xml, 'infCte', a1) };
};
const eventoCte = (o: Parameters<typeof eventoCteXml>[0]) => assinar(eventoCteXml(o), 'infEvento', a1);

const atendidos = (servico: string) => local.atendidos()[`RS/${servico}`] ?? 0;

describe('the sefaz adapter through SOAP over mutual TLS', () => {
  it('authorizes a CT-e with the protocol the rules wrote, byte for byte, and consults it', async () => {
    const sefaz = adaptador();
    const cte = cteAssinado();
    const r = await sefaz.autorizarCte(cte.xml, remetente);
    const p = autorizado(r);
    expect(r).toMatchObject({ cStat: 100, xMotivo: 'Autorizado o uso do CT-e' });
    const emBanco = await emProcesso.consultarCte(cte.chave);
    if (emBanco.tipo !== 'encontrado') throw new Error(emBanco.tipo);
    expect(p).toEqual(emBanco.protocolo);
    expect(p).toMatchObject({ modelo: 'cte', chave: cte.chave, tpAmb: 2, cStat: 100, verAplic: 'SIMULADA-1.0' });
    expect(await schemas.validate(montarCteProc(cte.xml, p), 'procCTe_v4.00.xsd')).toEqual({ valid: true, errors: [] });
    expect(await sefaz.consultarCte(cte.chave, remetente)).toEqual({ ...emBanco, eventosEmProcessamento: [] });
  });

  it('completes a duplicate by consultation: 204 of the same XML is its authorization, 539 names the other key', async () => {
    const sefaz = adaptador();
    const n = numero();
    const cte = cteAssinado({ numero: n });
    const p = autorizado(await sefaz.autorizarCte(cte.xml, remetente));
    expect(await sefaz.autorizarCte(cte.xml, remetente)).toEqual({
      tipo: 'duplicidade',
      cStat: 204,
      xMotivo: `Rejeição: Duplicidade de CT-e [nProt:${p.nProt}][dhAut: ${p.dhRecbto}]`,
      situacao: 'autorizado',
      mesmoConteudo: true,
      protocolo: p,
    });
    const outra = cteAssinado({ numero: n, codigo: '77777771' });
    expect(await sefaz.autorizarCte(outra.xml, remetente)).toMatchObject({
      tipo: 'duplicidade',
      cStat: 539,
      mesmoConteudo: false,
      protocolo: { chave: cte.chave, nProt: p.nProt },
    });
  });

  it('maps rejections, 105 and a dropped answer (sem_resposta, then found by consultation)', async () => {
    const sefaz = adaptador();
    expect(await sefaz.autorizarCte(cteAssinado({ xObs: 'SIMULAR:REJEICAO:531' }).xml, remetente)).toEqual({
      tipo: 'rejeitado',
      cStat: 531,
      xMotivo: 'Rejeição: Valor a receber deve ser menor ou igual Valor da Prestação',
    });
    expect(await sefaz.autorizarCte(cteAssinado({ xObs: 'SIMULAR:PENDENTE:1' }).xml, remetente)).toEqual({
      tipo: 'em_processamento',
      cStat: 105,
      xMotivo: 'Lote em processamento',
    });
    const perdido = cteAssinado({ xObs: 'SIMULAR:TIMEOUT' });
    expect(await sefaz.autorizarCte(perdido.xml, remetente)).toMatchObject({ tipo: 'sem_resposta' });
    expect(await sefaz.consultarCte(perdido.chave, remetente)).toMatchObject({ tipo: 'encontrado', cStat: 100, situacao: 'autorizado' });
    const injetado = cteAssinado();
    local.falhas.programar({ tipo: 'sem_resposta', servico: 'CTeRecepcaoSincV4', vezes: 1 });
    expect(await sefaz.autorizarCte(injetado.xml, remetente)).toMatchObject({ tipo: 'sem_resposta' });
    expect(await sefaz.autorizarCte(injetado.xml, remetente)).toMatchObject({ tipo: 'duplicidade', cStat: 204, mesmoConteudo: true });
    expect(await sefaz.consultarCte(cteAssinado().chave, remetente)).toMatchObject({ tipo: 'nao_encontrado', cStat: 217 });
  });

  it('an answer later than SEFAZ_TIMEOUT_MS is sem_resposta; the authority had it', async () => {
    const sefaz = adaptador({ timeoutMs: 500 });
    const cte = cteAssinado();
    local.falhas.programar({ tipo: 'latencia', ms: 1500, servico: 'CTeRecepcaoSincV4', vezes: 1 });
    expect(await sefaz.autorizarCte(cte.xml, remetente)).toMatchObject({ tipo: 'sem_resposta', motivo: expect.stringMatching(/500 ms/) });
    expect(await sefaz.consultarCte(cte.chave, remetente)).toMatchObject({ tipo: 'encontrado', cStat: 100 });
  });

  it('registers events with their retEventoCTe byte for byte, and completes 631 by consultation', async () => {
    const sefaz = adaptador();
    const cte = cteAssinado();
    const p = autorizado(await sefaz.autorizarCte(cte.xml, remetente));
    const cancelamento = eventoCte({ chave: cte.chave, tpEvento: '110111', det: evCancCTe(p.nProt) });
    const pe = registrado(await sefaz.registrarEventoCte(cancelamento, remetente));
    expect(pe).toMatchObject({ chave: cte.chave, tpEvento: '110111', nSeqEvento: 1, cStat: 135, idEvento: `ID110111${cte.chave}001` });
    const consulta = await sefaz.consultarCte(cte.chave, remetente);
    expect(consulta).toMatchObject({ tipo: 'encontrado', cStat: 101, situacao: 'cancelado' });
    if (consulta.tipo !== 'encontrado') return;
    expect(consulta.eventos).toEqual([pe]);
    expect(await sefaz.registrarEventoCte(cancelamento, remetente)).toEqual({
      tipo: 'duplicidade',
      cStat: 631,
      xMotivo: expect.stringMatching(/^Rejeição: Duplicidade de evento/),
      protocolo: pe,
    });
    expect(
      await sefaz.registrarEventoCte(eventoCte({ chave: cte.chave, tpEvento: '110111', det: evCancCTe('1') }), remetente),
    ).toMatchObject({
      tipo: 'rejeitado',
      cStat: expect.any(Number),
    });
  });

  it('MDF-e: authorization, the not-closed query (111, then 112 after closing) and the service status', async () => {
    const sefaz = adaptador();
    const cte = cteAssinado();
    autorizado(await sefaz.autorizarCte(cte.xml, remetente));
    const { chave, xml } = mdfeXml({ numero: numero(), ctes: [cte.chave] });
    const p = autorizado(await sefaz.autorizarMdfe(assinar(xml, 'infMDFe', a1), remetente));
    expect(p).toMatchObject({ modelo: 'mdfe', chave, cStat: 100 });
    const abertos = await sefaz.consultarMdfeNaoEncerrados(EMITENTE, '43', remetente);
    expect(abertos).toMatchObject({ tipo: 'consultado', cStat: 111 });
    expect(abertos.tipo === 'consultado' && abertos.mdfes).toContainEqual({ chave, nProt: p.nProt });
    const enc = assinar(eventoMdfeXml({ chave, tpEvento: '110112', det: evEncMDFe(p.nProt) }), 'infEvento', a1);
    registrado(await sefaz.registrarEventoMdfe(enc, remetente));
    expect(await sefaz.consultarMdfe(chave, remetente)).toMatchObject({ tipo: 'encontrado', cStat: 132, situacao: 'encerrado' });
    const depois = await sefaz.consultarMdfeNaoEncerrados(EMITENTE, '43', remetente);
    expect(depois.tipo === 'consultado' && depois.mdfes.map((m) => m.chave)).not.toContain(chave);
    expect(await sefaz.statusServico('cte', '43', remetente)).toMatchObject({ tipo: 'status', cStat: 107, tpAmb: 2, cUF: '43' });
    expect(await sefaz.statusServico('mdfe', '35', remetente)).toMatchObject({ tipo: 'status', cStat: 107 });
  });

  it('108/109/678 pause the channel: nothing is sent until the pause ends, and 678 pauses only that emitter', async () => {
    const sefaz = adaptador();
    const cte = cteAssinado();
    // Consumo indevido as the CT-e authorizers answer it (MOC CT-e 4.00 Visão Geral §8): 678.
    local.falhas.programar({ tipo: 'status', cStat: 678, servico: 'CTeRecepcaoSincV4', vezes: 1 });
    const antes = atendidos('CTeRecepcaoSincV4');
    const erro = await sefaz.autorizarCte(cte.xml, remetente).catch((e: unknown) => e);
    expect(erro).toBeInstanceOf(AutoridadeIndisponivel);
    expect(erro).toMatchObject({
      code: 'autoridade_indisponivel',
      motivo: 'consumo_indevido',
      cStat: 678,
      xMotivo: 'Rejeição: Consumo Indevido',
    });
    // Paused: refused at once, nothing reaches the authority; another company is not paused.
    await expect(sefaz.autorizarCte(cte.xml, remetente)).rejects.toBeInstanceOf(AutoridadeIndisponivel);
    await expect(sefaz.consultarCte(cte.chave, remetente)).rejects.toBeInstanceOf(AutoridadeIndisponivel);
    expect(atendidos('CTeRecepcaoSincV4')).toBe(antes + 1);
    expect(await sefaz.consultarCte(cte.chave, { companyId: 'outra' })).toMatchObject({ tipo: 'nao_encontrado' });
    await new Promise((r) => setTimeout(r, 20 * 60 + 50));
    expect(autorizado(await sefaz.autorizarCte(cte.xml, remetente)).chave).toBe(cte.chave);

    // 108 in the status service is its answer, and pauses the authorizer for every emitter.
    local.falhas.programar({ tipo: 'status', cStat: 108, servico: 'CTeStatusServicoV4', vezes: 1 });
    expect(await sefaz.statusServico('cte', '43', remetente)).toMatchObject({ tipo: 'status', cStat: 108 });
    await expect(sefaz.consultarCte(cte.chave, { companyId: 'outra' })).rejects.toMatchObject({ motivo: 'paralisada', cStat: 108 });
    await new Promise((r) => setTimeout(r, 40));
    local.falhas.programar({ tipo: 'status', cStat: 109, servico: 'CTeConsultaV4', vezes: 1 });
    await expect(sefaz.consultarCte(cte.chave, remetente)).rejects.toMatchObject({ motivo: 'paralisada', cStat: 109 });
  });

  it('MDF-e\'s consumo indevido is 678 "Uso Indevido" too: the emitter pauses, nothing is processed', async () => {
    const sefaz = adaptador();
    const { xml } = mdfeXml({ numero: numero(), ctes: [cteAssinado().chave] });
    local.falhas.programar({ tipo: 'status', cStat: 678, servico: 'MDFeRecepcaoSinc', vezes: 1 });
    const doOutro = { companyId: 'empresa-678' };
    await expect(sefaz.autorizarMdfe(assinar(xml, 'infMDFe', a1), doOutro)).rejects.toMatchObject({
      motivo: 'consumo_indevido',
      cStat: 678,
      xMotivo: 'Rejeição: Uso Indevido',
    });
    await expect(sefaz.consultarMdfeNaoEncerrados(EMITENTE, '43', doOutro)).rejects.toBeInstanceOf(AutoridadeIndisponivel);
    expect(await sefaz.statusServico('mdfe', '43', remetente)).toMatchObject({ tipo: 'status', cStat: 107 });
  });

  it("routes AP, PE and RR to SVSP (built in: SP's hosts) and a contingency key of MT to SVC-RS, as the local server serves them", async () => {
    const sefaz = adaptador();
    const antes = local.atendidos()['SVSP/CTeStatusServicoV4'] ?? 0;
    for (const [uf, cUF] of [
      ['PE', '26'],
      ['AP', '16'],
      ['RR', '14'],
    ] as const) {
      expect(destinoSefaz(uf, 'CTeStatusServicoV4', 'homologacao').url).toBe(
        'https://homologacao.nfe.fazenda.sp.gov.br/CTeWS/WS/CTeStatusServicoV4.asmx',
      );
      expect(await sefaz.statusServico('cte', cUF, remetente)).toMatchObject({ tipo: 'status', cStat: 107, cUF });
    }
    expect((local.atendidos()['SVSP/CTeStatusServicoV4'] ?? 0) - antes).toBe(3);
    // SVRS does not serve PE: the door answers 226 to a PE status asked there, as a real authorizer would.
    const r = await pedirHttps(local.url, '/SVRS/CTeStatusServicoV4', envelope('CTeStatusServicoV4', consStatServCTe('26'), '26'), {
      ca: local.caPem,
      cliente: { key: a1.privateKeyPem, cert: a1.certificatePem },
    });
    expect(r.corpo).toContain('<cStat>226</cStat>');
    // MT authorizes its own, but its SVC is SVC-RS (explicit table): a key of MT with tpEmis 7 is consulted there.
    const chaveMt = `51${cteAssinado().chave.slice(2, 34)}7${'0'.repeat(8)}0`;
    const antesSvc = local.atendidos()['SVC-RS/CTeConsultaV4'] ?? 0;
    await sefaz.consultarCte(chaveMt, remetente).catch(() => undefined);
    expect((local.atendidos()['SVC-RS/CTeConsultaV4'] ?? 0) - antesSvc).toBe(1);
  });

  it('sends no SOAP header for CT-e (MOC 4.00a) and mdfeCabecMsg for MDF-e; the door refuses an MDF-e request without it', async () => {
    const cliente = { key: a1.privateKeyPem, cert: a1.certificatePem };
    expect(envelope('CTeStatusServicoV4', consStatServCTe('43'))).not.toContain('CabecMsg');
    expect(envelope('MDFeStatusServico', 'x')).toContain('<mdfeCabecMsg');
    const semCabecalho = envelope('MDFeStatusServico', consStatServMDFe).replace(/<soap12:Header>.*<\/soap12:Header>/, '');
    const r = await pedirHttps(local.url, '/SVRS/MDFeStatusServico', semCabecalho, { ca: local.caPem, cliente });
    expect(r.status).toBe(400);
    expect(falhaSoapDe(r)).toEqual({
      codigo: 'soap12:Sender',
      motivo: `the SOAP header must hold mdfeCabecMsg in ${namespaceWsdl('MDFeStatusServico')} (cUF, versaoDados), as the MDF-e manual asks`,
    });
    const versao = envelope('MDFeStatusServico', consStatServMDFe).replace(
      '<versaoDados>3.00</versaoDados>',
      '<versaoDados>1.00</versaoDados>',
    );
    expect(falhaSoapDe(await pedirHttps(local.url, '/SVRS/MDFeStatusServico', versao, { ca: local.caPem, cliente })).motivo).toBe(
      'mdfeCabecMsg/versaoDados must be 3.00, not "1.00"',
    );
    // A CT-e request with the old header is still answered: the 4.00 services ignore it (sped-cte still sends one).
    const comCabecalhoAntigo = envelope('CTeStatusServicoV4', consStatServCTe('43')).replace(
      '<soap12:Body>',
      `<soap12:Header><cteCabecMsg xmlns="${namespaceWsdl('CTeStatusServicoV4')}"><cUF>43</cUF><versaoDados>4.00</versaoDados></cteCabecMsg></soap12:Header><soap12:Body>`,
    );
    const antigo = await pedirHttps(local.url, '/RS/CTeStatusServicoV4', comCabecalhoAntigo, { ca: local.caPem, cliente });
    expect(antigo.status).toBe(200);
    expect(antigo.corpo).toContain('<cStat>107</cStat>');
    expect(antigo.corpo).toContain('<cteStatusServicoCTResult');
  });

  it('an HTTP 500 with a SOAP fault is AutoridadeIndisponivel (503), and nothing was processed', async () => {
    const sefaz = adaptador();
    const cte = cteAssinado();
    local.falhas.programar({ tipo: 'erro_servidor', servico: 'CTeRecepcaoSincV4', vezes: 1 });
    await expect(sefaz.autorizarCte(cte.xml, remetente)).rejects.toMatchObject({
      code: 'autoridade_indisponivel',
      motivo: 'falha_no_servidor',
      xMotivo: expect.stringMatching(/^HTTP 500 SOAP fault soap12:Receiver/),
    });
    expect(await sefaz.consultarCte(cte.chave, remetente)).toMatchObject({ tipo: 'nao_encontrado' });
  });

  it('a client certificate the authority does not trust is CertificadoRecusadoPelaAutoridade (422), nothing processed', async () => {
    const outra = a1DeOutraAc({ cnpj: EMITENTE, razao: 'OUTRA AC', password: 'x', cnpjIn: 'otherName', ...VALIDADE });
    const sefaz = adaptador({ certificado: outra });
    const cte = cteAssinado();
    const antes = atendidos('CTeRecepcaoSincV4');
    const erro = await sefaz.autorizarCte(cte.xml, remetente).catch((e: unknown) => e);
    expect(erro).toBeInstanceOf(CertificadoRecusadoPelaAutoridade);
    expect(erro).toMatchObject({
      code: 'certificado_recusado_pela_autoridade',
      detalhe: expect.stringMatching(/closed the TLS handshake after the client certificate, twice/),
    });
    expect(atendidos('CTeRecepcaoSincV4')).toBe(antes);
    await expect(adaptador({ certificado: null }).consultarCte(cte.chave, remetente)).rejects.toMatchObject({
      code: 'certificado_invalido',
    });
  });

  it('a server certificate the client does not trust sends nothing: AutoridadeIndisponivel, the server got no request', async () => {
    const falso = await iniciarAutoridadeLocalDeTeste({ pool: local.pool, clock, schemas, servidorNaoConfiavel: true });
    try {
      const sefaz = adaptador({ url: falso.url, confiancaPem: falso.caPem });
      await expect(sefaz.autorizarCte(cteAssinado().xml, remetente)).rejects.toMatchObject({
        code: 'autoridade_indisponivel',
        motivo: 'servidor_nao_confiavel',
      });
      expect(falso.atendidos()).toEqual({});
      // Trusting the other CA would have been the only way in: verification is never switched off.
      const { caPem } = certificadoServidorNaoConfiavel();
      expect(caPem).not.toBe(falso.caPem);
    } finally {
      await falso.close();
    }
  });

  it('a refused connection is AutoridadeIndisponivel (sem_conexao): nothing was sent', async () => {
    const sefaz = adaptador({ url: 'https://127.0.0.1:1' });
    await expect(sefaz.consultarCte(cteAssinado().chave, remetente)).rejects.toMatchObject({ motivo: 'sem_conexao', cStat: null });
  });
});
