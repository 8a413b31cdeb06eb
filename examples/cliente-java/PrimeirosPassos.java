import br.frete.cliente.ApiClient;
import br.frete.cliente.ApiException;
import br.frete.cliente.api.CtEApi;
import br.frete.cliente.api.FiscalApi;
import br.frete.cliente.api.FrotaApi;
import br.frete.cliente.model.Cte;
import br.frete.cliente.model.CteDraftInput;
import br.frete.cliente.model.CteIssueEnvelope;
import br.frete.cliente.model.CteSituation;
import br.frete.cliente.model.FiscalStatus;
import br.frete.cliente.model.Motorista;
import br.frete.cliente.model.MotoristaInput;
import br.frete.cliente.model.Veiculo;
import br.frete.cliente.model.VeiculoInput;
import java.io.File;
import java.util.Random;

/**
 * The first steps of an integrator, through the Java client openapi-generator writes from the OpenAPI document
 * (`-g java --library native`; `deploy/clientes/check.sh` generates, compiles and runs it): the fiscal status, a vehicle
 * registered and read back, a driver registered and, when the carrier can issue and `FRETE_RASCUNHO` names a draft, a
 * CT-e created, issued and read until the authority's answer. One JSON line per step on stdout.
 *
 * <p>Environment: FRETE_API_URL (e.g. http://127.0.0.1:3000), FRETE_API_KEY (fk_hml_…), FRETE_RASCUNHO (optional: a
 * draft CT-e as JSON, like examples/cliente/rascunho.exemplo.json).
 */
public final class PrimeirosPassos {
  private static final Random ALEATORIO = new Random();

  public static void main(String[] args) throws Exception {
    ApiClient cliente = new ApiClient();
    cliente.updateBaseUri(obrigatoria("FRETE_API_URL"));
    String chave = obrigatoria("FRETE_API_KEY");
    cliente.setRequestInterceptor(pedido -> pedido.header("Authorization", "Bearer " + chave));
    try {
      passos(cliente);
    } catch (ApiException e) {
      // The API's envelope as it came: `error.code` says which rule refused.
      System.out.println("{\"etapa\":\"erro\",\"status\":" + e.getCode() + ",\"corpo\":" + texto(e.getResponseBody()) + "}");
      System.exit(1);
    }
  }

  private static void passos(ApiClient cliente) throws Exception {
    FiscalStatus status = new FiscalApi(cliente).obterStatusFiscal().getData();
    linha("status", "\"disponivel\":" + status.getDisponivel() + ",\"ambiente\":" + texto(status.getAmbiente().getValue()));

    FrotaApi frota = new FrotaApi(cliente);
    // Random, so that the example can run again against the same company (a plate or CPF is registered once).
    String placa = "JVA" + ALEATORIO.nextInt(10) + (char) ('A' + ALEATORIO.nextInt(26)) + String.format("%02d", ALEATORIO.nextInt(100));
    Veiculo criado = frota.cadastrarVeiculo(new VeiculoInput().placa(placa).tipo(VeiculoInput.TipoEnum.TRACAO), null).getData();
    Veiculo lido = frota.obterVeiculo(String.valueOf(criado.getId())).getData();
    linha("veiculo", "\"id\":" + criado.getId() + ",\"placa\":" + texto(lido.getPlaca()) + ",\"tipo\":" + texto(lido.getTipo().getValue()));

    Motorista motorista = frota.cadastrarMotorista(new MotoristaInput().cpf(cpf()).nome("MOTORISTA DO EXEMPLO JAVA"), null).getData();
    linha("motorista", "\"id\":" + motorista.getId() + ",\"cpf\":" + texto(motorista.getCpf()));

    String rascunho = System.getenv("FRETE_RASCUNHO");
    if (rascunho == null || rascunho.isEmpty() || !Boolean.TRUE.equals(status.getDisponivel())) {
      linha("cte", "\"pulado\":" + texto(rascunho == null || rascunho.isEmpty() ? "FRETE_RASCUNHO not set" : "the carrier cannot issue yet"));
      return;
    }
    CtEApi ctes = new CtEApi(cliente);
    CteDraftInput entrada = cliente.getObjectMapper().readValue(new File(rascunho), CteDraftInput.class);
    Cte criadoCte = ctes.criarRascunhoCte(entrada, null).getData();
    CteIssueEnvelope emissao = ctes.emitirCte(criadoCte.getId().toString(), null).getData();
    Cte cte = ctes.obterCte(criadoCte.getId().toString()).getData();
    // The authority answers in the background: read the CT-e until it leaves em_processamento.
    for (int i = 0; i < 120 && cte.getSituacao() == CteSituation.EM_PROCESSAMENTO; i++) {
      Thread.sleep(500);
      cte = ctes.obterCte(criadoCte.getId().toString()).getData();
    }
    linha(
        "cte",
        "\"id\":" + texto(cte.getId().toString()) + ",\"emissao\":" + texto(emissao.getSituacao().getValue()) + ",\"situacao\":"
            + texto(cte.getSituacao().getValue()) + ",\"chave\":" + texto(cte.getAccessKey()));
  }

  /** A random valid CPF (its check digits computed). */
  private static String cpf() {
    int[] d = new int[11];
    for (int i = 0; i < 9; i++) d[i] = i == 0 ? 1 + ALEATORIO.nextInt(9) : ALEATORIO.nextInt(10);
    for (int n = 9; n < 11; n++) {
      int soma = 0;
      for (int i = 0; i < n; i++) soma += d[i] * (n + 1 - i);
      int resto = (soma * 10) % 11;
      d[n] = resto == 10 ? 0 : resto;
    }
    StringBuilder s = new StringBuilder();
    for (int x : d) s.append(x);
    return s.toString();
  }

  private static String obrigatoria(String nome) {
    String valor = System.getenv(nome);
    if (valor == null || valor.isEmpty()) throw new IllegalStateException(nome + " is not set");
    return valor;
  }

  private static void linha(String etapa, String campos) {
    System.out.println("{\"etapa\":" + texto(etapa) + "," + campos + "}");
  }

  /** A JSON string (or null). */
  private static String texto(String s) {
    if (s == null) return "null";
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }
}
