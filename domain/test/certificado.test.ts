import { type CertificadoEvent, certificadoDecider } from '../src';
import { scenario } from './given-when-then';

const now = new Date('2026-11-22T12:00:00Z');
const { given } = scenario(certificadoDecider, { now });
const lido = {
  titular: 'ACME',
  cnpj: '11222333000262',
  emissor: 'AC TESTE',
  serial: '01AB',
  valido_de: '2026-01-01T00:00:00.000Z',
  valido_ate: '2027-01-01T00:00:00.000Z',
};
const enviar = {
  type: 'EnviarCertificado' as const,
  company_id: 'c1',
  company_cnpj: '11222333000181',
  blob_id: 'b1',
  sha256: 's',
  nome_arquivo: 'a.pfx',
  certificado: lido,
  autoassinado: false,
  producao: false,
};
const enviado: CertificadoEvent = {
  type: 'certificado.enviado',
  data: { company_id: 'c1', blob_id: 'b1', sha256: 's', nome_arquivo: 'a.pfx', ...lido },
};

describe('certificado decider', () => {
  it('accepts a certificate of the same CNPJ root (a branch of the head office)', () => given().when(enviar).then(enviado));
  it('refuses an expired certificate', () =>
    given()
      .when({ ...enviar, certificado: { ...lido, valido_ate: '2026-11-22T11:59:59.000Z' } })
      .thenRejects('certificado_expirado'));
  it('refuses a certificate not yet valid', () =>
    given()
      .when({ ...enviar, certificado: { ...lido, valido_de: '2026-12-01T00:00:00.000Z' } })
      .thenRejects('certificado_invalido'));
  it('refuses a certificate of another company', () =>
    given()
      .when({ ...enviar, certificado: { ...lido, cnpj: '99888777000100' } })
      .thenRejects('certificado_cnpj_divergente'));
  it('refuses a certificate without CNPJ', () =>
    given()
      .when({ ...enviar, certificado: { ...lido, cnpj: null } })
      .thenRejects('certificado_invalido'));
  it('takes a self-signed certificate (the test A1) in the sandbox', () =>
    given()
      .when({ ...enviar, autoassinado: true })
      .then(enviado));
  it('refuses a self-signed certificate in production; an issued one goes through', () => {
    given()
      .when({ ...enviar, autoassinado: true, producao: true })
      .thenRejects('certificado_autoassinado');
    given()
      .when({ ...enviar, producao: true })
      .then(enviado);
  });
  it('removes only what is there', () => {
    given(enviado)
      .when({ type: 'RemoverCertificado', company_id: 'c1' })
      .then({ type: 'certificado.removido', data: { company_id: 'c1', blob_id: 'b1' } });
    given().when({ type: 'RemoverCertificado', company_id: 'c1' }).then();
  });
});
