/** A secret shown once: a read-only field, labelled, to select and copy (never autofilled or spell-checked). */
export function Segredo({ nome, rotulo, valor }: { nome: string; rotulo: string; valor: string }) {
  const id = `segredo-${nome}`;
  return (
    <div class="campo">
      <label for={id}>{rotulo}</label>
      <input id={id} class="segredo" type="text" value={valor} readOnly autocomplete="off" spellcheck={false} />
    </div>
  );
}
