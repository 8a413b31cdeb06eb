/** What the start says to a person at a terminal, once the service is ready. */
export interface BannerFacts {
  environment: string;
  services: string[];
  eventStore: string;
  /** `embedded PostgreSQL in <dir>` or `DATABASE_URL`. */
  database: string;
  bus: string;
  url: string | null;
  opsUrl: string | null;
  demo: { cnpj: string; api_key: string } | null;
}

const ENVIRONMENTS: Record<string, string> = { homologacao: 'homologacao (sandbox)', producao: 'producao (production)' };

/**
 * The start's lines for a person: where things are and a first command, aligned, the `curl` written as a shell reads
 * it (quoted once, pasted as it is). The JSON lines say the same for a machine when stdout is not a terminal.
 */
export function banner(f: BannerFacts): string {
  const row = (label: string, text: string) => `  ${label.padEnd(10)}${text}`;
  const lines = [
    '',
    `frete-fiscal is running · ${ENVIRONMENTS[f.environment] ?? f.environment}`,
    row('data', f.database),
    row('services', `${f.services.join(', ')} · event store: ${f.eventStore} · bus: ${f.bus}`),
  ];
  if (f.url) {
    lines.push(
      row('API', `${f.url}/v1`),
      row('docs', `${f.url}/v1/docs`),
      row('panel', `${f.url}/console   (its first admin: pnpm ops user create --company <cnpj> --email <e-mail> --role admin)`),
      row('health', `${f.url}/health/ready`),
    );
  }
  if (f.opsUrl) lines.push(row('ops', `${f.opsUrl}   (/health/live, /health/ready, /metrics)`));
  lines.push(row('operator', 'pnpm ops company list   (works on this database from any shell)'));
  if (f.demo && f.url) {
    lines.push(
      '',
      'Demo carrier',
      row('CNPJ', f.demo.cnpj),
      row('API key', `${f.demo.api_key}   (all scopes)`),
      row('try', `curl -H 'Authorization: Bearer ${f.demo.api_key}' ${f.url}/v1/fiscal/status`),
    );
  }
  lines.push('', 'Ctrl-C stops it. Log lines follow.', '');
  return `${lines.join('\n')}\n`;
}
