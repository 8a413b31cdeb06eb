import fs from 'node:fs';
import path from 'node:path';

/** The standalone server's configuration, from the environment (an empty variable counts as unset). */
export interface ConfigAutoridade {
  host: string;
  port: number;
  tpAmb: 1 | 2;
  /** The server's certificate and key (PEM files), or null: a development CA and certificate are made. */
  tls: { certFile: string; keyFile: string } | null;
  /** The PEM bundle of the CAs whose client certificates it accepts. */
  clientCaFile: string;
  /** PostgreSQL for the simulated authority's tables, or null: embedded PostgreSQL under `dataDir`. */
  databaseUrl: string | null;
  /** Embedded PostgreSQL and the development TLS files. */
  dataDir: string;
}

export class ConfigAutoridadeInvalida extends Error {
  constructor(readonly problemas: string[]) {
    super(`the local authority cannot start:\n${problemas.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigAutoridadeInvalida';
  }
}

/** Reads every variable and refuses the start naming every bad one and what it must be. */
export function lerConfig(env: NodeJS.ProcessEnv = process.env): ConfigAutoridade {
  const valor = (nome: string) => (env[nome] === undefined || env[nome] === '' ? undefined : env[nome]);
  const problemas: string[] = [];
  const arquivo = (nome: string): string | undefined => {
    const v = valor(nome);
    if (v === undefined) return undefined;
    const absoluto = path.resolve(v);
    if (!fs.existsSync(absoluto)) problemas.push(`${nome} must name a readable PEM file, got '${v}' (not found)`);
    return absoluto;
  };

  const portaTexto = valor('AUTHORITY_PORT') ?? '8443';
  const port = Number(portaTexto);
  if (!/^[0-9]+$/.test(portaTexto) || port > 65_535)
    problemas.push(`AUTHORITY_PORT must be an integer from 0 to 65535, got '${portaTexto}'`);
  const ambiente = valor('AUTHORITY_TP_AMB') ?? '2';
  if (ambiente !== '1' && ambiente !== '2') problemas.push(`AUTHORITY_TP_AMB must be 1 (produção) or 2 (homologação), got '${ambiente}'`);

  const certFile = arquivo('AUTHORITY_TLS_CERT');
  const keyFile = arquivo('AUTHORITY_TLS_KEY');
  if ((certFile === undefined) !== (keyFile === undefined)) {
    problemas.push(
      'AUTHORITY_TLS_CERT and AUTHORITY_TLS_KEY go together: set both (PEM files) or neither (a development certificate is made)',
    );
  }
  const clientCaFile = arquivo('AUTHORITY_CLIENT_CA');
  if (valor('AUTHORITY_CLIENT_CA') === undefined) {
    problemas.push(
      'AUTHORITY_CLIENT_CA must name the PEM bundle of the CAs whose client certificates (the carriers\u2019 A1) the server accepts',
    );
  }
  if (problemas.length > 0) throw new ConfigAutoridadeInvalida(problemas);
  return {
    host: valor('AUTHORITY_HOST') ?? '127.0.0.1',
    port,
    tpAmb: ambiente === '1' ? 1 : 2,
    tls: certFile && keyFile ? { certFile, keyFile } : null,
    clientCaFile: clientCaFile!,
    databaseUrl: valor('DATABASE_URL') ?? null,
    dataDir: path.resolve(valor('AUTHORITY_DATA_DIR') ?? path.join(process.cwd(), '.data', 'authority')),
  };
}
