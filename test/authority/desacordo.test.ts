import { type FiscalRootSchema, FiscalSchemas } from '@frete/documents';
import { iniciarAutoridadeLocalDeTeste, type AutoridadeLocalDeTeste } from '../support/autoridade-local';
import { EMITENTE, assinar, cteXml, eventoCteXml } from '../support/autoridade-xml';
import { makeA1 } from '../support/certificates';
import { areaDeRecepcao, envelope, pedirHttps, retornoDe } from '../support/soap-cliente';

/**
 * The taker's events (610110 prestação do serviço em desacordo, 610111 its cancellation) at the local authority
 * server, over TLS with the taker's A1: registered by the CT-e's authorizer only (MOC 4.00 Visão Geral §3.7.1, "SEFAZ
 * Autoriz."; another authorizer answers 677), from the taker only (N19, 755), within 45 days (§6.5.1 O05, 787), a
 * cancellation naming a registered desacordo (§6.6.1 O03, 866). The fixture's CT-e is of RS, its taker the sender (toma3 0).
 */

const VALIDADE = { notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2040-01-01T00:00:00Z') };
const TOMADOR = '45997418000153';
const emitente = makeA1({ cnpj: EMITENTE, razao: 'TRANSPORTADORA EXEMPLO LTDA', password: 'senha', cnpjIn: 'otherName', ...VALIDADE });
const tomador = makeA1({ cnpj: TOMADOR, razao: 'REMETENTE TOMADOR LTDA', password: 'senha', cnpjIn: 'otherName', ...VALIDADE });
const OBS = 'SERVICO NAO PRESTADO CONFORME CONTRATADO';

const INICIO = new Date('2026-11-20T13:05:00Z');
let agora = INICIO;
const schemas = new FiscalSchemas();
let autoridade: AutoridadeLocalDeTeste;

beforeAll(async () => {
  autoridade = await iniciarAutoridadeLocalDeTeste({ clock: () => agora, schemas });
});
afterAll(async () => {
  await autoridade?.close();
  await schemas.close();
});
beforeEach(() => {
  agora = INICIO;
});

let proximo = 7_000;
const chamar = async (quem: typeof emitente, autorizador: string, servico: 'CTeRecepcaoSincV4' | 'CTeRecepcaoEventoV4', dados: string) =>
  retornoDe(
    servico,
    await pedirHttps(autoridade.url, `/${autorizador}/${servico}`, envelope(servico, dados), {
      ca: autoridade.caPem,
      cliente: { key: quem.privateKeyPem, cert: quem.certificatePem },
    }),
    servico === 'CTeRecepcaoSincV4' ? 'retCTe' : 'retEventoCTe',
  );
async function esquemaValido(xml: string, schema: FiscalRootSchema) {
  expect(await schemas.validate(xml, schema)).toEqual({ valid: true, errors: [] });
}

/** An RS CT-e authorized at SVRS; its key. */
async function autorizado(): Promise<string> {
  const { chave, xml } = cteXml({ numero: proximo++ });
  const r = await chamar(emitente, 'SVRS', 'CTeRecepcaoSincV4', areaDeRecepcao(assinar(xml, 'infCte', emitente)));
  expect(r.texto('cStat')).toBe('100');
  return chave;
}
const desacordo = (chave: string, o: { cnpj?: string; nSeq?: number } = {}) =>
  eventoCteXml({
    chave,
    tpEvento: '610110',
    cnpj: o.cnpj ?? TOMADOR,
    nSeq: o.nSeq,
    det: `<evPrestDesacordo><descEvento>Prestacao do Servico em Desacordo</descEvento><indDesacordoOper>1</indDesacordoOper><xObs>${OBS}</xObs></evPrestDesacordo>`,
  });
const cancelamento = (chave: string, nProt: string, nSeq = 1) =>
  eventoCteXml({
    chave,
    tpEvento: '610111',
    cnpj: TOMADOR,
    nSeq,
    det: `<evCancPrestDesacordo><descEvento>Cancelamento Prestacao do Servico em Desacordo</descEvento><nProtEvPrestDes>${nProt}</nProtEvPrestDes></evCancPrestDesacordo>`,
  });
const enviar = (xml: string, quem = tomador, autorizador = 'SVRS') =>
  chamar(quem, autorizador, 'CTeRecepcaoEventoV4', assinar(xml, 'infEvento', quem).replace(/^<\?xml[^>]*\?>/, ''));
/** `retEventoCTe/infEvento`'s cStat and xMotivo. */
const status = (r: Awaited<ReturnType<typeof enviar>>) => {
  const m = /<cStat>([0-9]+)<\/cStat><xMotivo>([^<]*)<\/xMotivo>/.exec(r.bruto);
  return { cStat: m?.[1] ?? null, xMotivo: m?.[2] ?? null };
};

describe('local authority: the taker’s desacordo (610110) and its cancellation (610111)', () => {
  it('registers the taker’s desacordo at the CT-e’s authorizer (135) and its cancellation; refuses another authorizer (677)', async () => {
    const chave = await autorizado();
    // The taker's UF is not where the event goes: SP's authorizer does not serve an RS CT-e.
    const alheio = await enviar(desacordo(chave), tomador, 'SP');
    await esquemaValido(alheio.bruto, 'retEventoCTe_v4.00.xsd');
    expect(status(alheio)).toEqual({ cStat: '677', xMotivo: 'Rejeição: Órgão de recepção do evento inválido' });

    const r = await enviar(desacordo(chave));
    await esquemaValido(r.bruto, 'retEventoCTe_v4.00.xsd');
    expect(status(r)).toEqual({ cStat: '135', xMotivo: 'Evento registrado e vinculado a CT-e' });
    expect(r.bruto).toContain('<tpEvento>610110</tpEvento><xEvento>Prestação do Serviço em Desacordo</xEvento>');
    const nProt = /<nProt>([0-9]{15})<\/nProt>/.exec(r.bruto)![1]!;

    // While in force, a cancellation of another protocol is 866; of its own, 135; then again 866 (already cancelled).
    expect(status(await enviar(cancelamento(chave, '143260000000000'))).cStat).toBe('866');
    const canc = await enviar(cancelamento(chave, nProt));
    await esquemaValido(canc.bruto, 'retEventoCTe_v4.00.xsd');
    expect(status(canc).cStat).toBe('135');
    expect(status(await enviar(cancelamento(chave, nProt, 2))).cStat).toBe('866');
    // A new desacordo takes the next sequence.
    expect(status(await enviar(desacordo(chave, { nSeq: 2 }))).cStat).toBe('135');
  });

  it('from the emitter (or anyone but the taker) it is 755; beyond sequence 20 it is 636', async () => {
    const chave = await autorizado();
    const r = await enviar(desacordo(chave, { cnpj: EMITENTE }), emitente);
    await esquemaValido(r.bruto, 'retEventoCTe_v4.00.xsd');
    expect(status(r)).toEqual({
      cStat: '755',
      xMotivo: 'Rejeição: Autor do evento prestação do serviço em desacordo deve ser o tomador do serviço do CT-e',
    });
    expect(status(await enviar(desacordo(chave, { nSeq: 21 }))).cStat).toBe('636');
  });

  it('45 days after the authorization it is 787', async () => {
    const chave = await autorizado();
    agora = new Date(INICIO.getTime() + 45 * 86_400_000 + 60_000);
    const r = await enviar(desacordo(chave));
    expect(status(r)).toEqual({
      cStat: '787',
      xMotivo: 'Rejeição: Data do evento de Prestação do Serviço em desacordo deve ocorrer em até 45 dias da autorização do CT-e',
    });
  });
});
