export interface Barra {
  rotulo: string;
  valor: number;
  /** How the value reads (a unit, a format); the number itself by default. */
  texto?: string;
}

const ALTURA = 28;
const ROTULO = 150;
const LARGURA = 420;
const AREA_BARRA = LARGURA - ROTULO - 70;

/**
 * A horizontal bar chart drawn on the server (inline SVG, no script). Each figure is shown once: the drawing is for
 * the eye (hidden from assistive technology), and the same numbers as a list, visually hidden, are what a screen
 * reader reads under the figure's caption.
 */
export function GraficoDeBarras({ id, titulo, barras, escala }: { id: string; titulo: string; barras: Barra[]; escala?: number }) {
  const maximo = Math.max(escala ?? 0, ...barras.map((b) => b.valor), 1);
  const altura = barras.length * ALTURA + 8;
  return (
    <figure class="grafico" aria-labelledby={`${id}-titulo`}>
      <figcaption id={`${id}-titulo`}>{titulo}</figcaption>
      <svg viewBox={`0 0 ${LARGURA} ${altura}`} width="100%" aria-hidden="true" focusable="false">
        <title>{titulo}</title>
        {barras.map((b, i) => {
          const y = i * ALTURA + 4;
          const largura = b.valor > 0 ? Math.max(2, Math.round((b.valor / maximo) * AREA_BARRA)) : 0;
          return (
            <g key={b.rotulo}>
              <text x={ROTULO - 6} y={y + 17} text-anchor="end" class="grafico-rotulo">
                {b.rotulo}
              </text>
              <rect x={ROTULO} y={y + 4} width={largura} height={ALTURA - 10} class="grafico-barra" />
              <text x={ROTULO + largura + 6} y={y + 17} class="grafico-valor">
                {b.texto ?? String(b.valor)}
              </text>
            </g>
          );
        })}
      </svg>
      <ul class="grafico-dados visualmente-oculto" aria-label={`${titulo} (valores)`}>
        {barras.map((b) => (
          <li key={b.rotulo}>
            {b.rotulo}: <span class="numero">{b.texto ?? String(b.valor)}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
