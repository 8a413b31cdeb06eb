#!/usr/bin/env bash
# Clients beyond TypeScript: generates the Java and Python clients from the OpenAPI document with openapi-generator
# (its CLI jar from Maven Central, run with the machine's Java) and checks that they work.
#
#   deploy/clientes/check.sh <openapi.json>                      # generate and compile only
#   FRETE_API_URL=… FRETE_API_KEY=… [FRETE_RASCUNHO=draft.json] deploy/clientes/check.sh <openapi.json>
#                                                               # … and run examples/cliente-java against a service
#
# - Java (`-g java --library native`): compiled with Maven (the dependencies from Maven Central, cached in ~/.m2);
#   examples/cliente-java/PrimeirosPassos.java compiled against it and, with FRETE_API_URL, run (its JSON lines on stdout).
# - Python (`-g python`): no file written twice (one class per tag), every generated file through `python3 -m py_compile`,
#   and the package imported when its dependencies (pydantic, urllib3, python-dateutil) are installed.
# The last line on stdout is a JSON summary with the seconds of each phase. Generated sources go to CLIENTES_DIR
# (default .data/clientes/, not committed). Needs java (17+), mvn and python3 on PATH.
#
# Environment: OPENAPI_GENERATOR_VERSION (default 7.25.0; the jar is kept in .data/openapi-generator/), CLIENTES_DIR.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
doc="$(realpath "${1:?usage: check.sh <openapi.json>}")"
version="${OPENAPI_GENERATOR_VERSION:-7.25.0}"
out="${CLIENTES_DIR:-$root/.data/clientes}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

fail() {
  echo "clientes: $*" >&2
  exit 1
}
for c in java mvn python3; do command -v "$c" >/dev/null 2>&1 || fail "$c is not on PATH"; done

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# 1. The generator's CLI jar (once; Maven keeps it in ~/.m2).
lib="$root/.data/openapi-generator"
jar="$lib/openapi-generator-cli-$version.jar"
if [[ ! -f "$jar" ]]; then
  echo "clientes: fetching openapi-generator-cli $version from Maven Central" >&2
  mvn -q -B dependency:copy -Dartifact="org.openapitools:openapi-generator-cli:$version" -DoutputDirectory="$lib" >&2 ||
    fail "mvn could not fetch org.openapitools:openapi-generator-cli:$version"
fi

# Generates one client into $out/$1; a file written twice (two tags or models that map to one name) fails.
gerar() {
  local nome="$1"
  shift
  rm -rf "${out:?}/$nome"
  # Neither the generated tests nor the docs are checked here: not writing them saves a third of the time.
  java -jar "$jar" generate -i "$doc" -o "$out/$nome" "$@" \
    --global-property apiTests=false,modelTests=false,apiDocs=false,modelDocs=false >"$out/$nome.log" 2>&1 || {
    tail -30 "$out/$nome.log" >&2
    fail "openapi-generator failed for $nome (log: $out/$nome.log)"
  }
  if grep -q "Duplicate file path detected" "$out/$nome.log"; then
    grep "Duplicate file path detected" "$out/$nome.log" >&2
    fail "the $nome client writes a file twice"
  fi
}

t=$(now)
gerar java -g java --library native \
  --additional-properties=invokerPackage=br.frete.cliente,apiPackage=br.frete.cliente.api,modelPackage=br.frete.cliente.model,groupId=br.frete,artifactId=frete-cliente,hideGenerationTimestamp=true
# openapi-generator's Python templates write the receiver's side of OpenAPI 3.1 `webhooks` with no parameter types
# (`webhook_id: ,`, a SyntaxError): a client calls the API, so the Python client is written without them (naming what
# to write, apis, models and supporting files, leaves the webhooks out). Java keeps them (tag `Notificações`).
gerar python -g python --additional-properties=packageName=frete_cliente --global-property apis=,models=,supportingFiles=
geracao=$(since "$t")

# 2. Python: every file compiles; the package imports when its dependencies are there.
t=$(now)
python3 - "$out/python" <<'PY' >&2 || fail "a generated Python file does not compile"
import pathlib, py_compile, sys
files = sorted(pathlib.Path(sys.argv[1]).rglob("*.py"))
for f in files:
    py_compile.compile(str(f), doraise=True)
print(f"clientes: {len(files)} Python files compile")
PY
python_import="skipped: pydantic, urllib3 or python-dateutil not installed"
if python3 -c "import pydantic, urllib3, dateutil, typing_extensions" 2>/dev/null; then
  (cd "$out/python" && python3 -c "import frete_cliente, frete_cliente.api, frete_cliente.models") >&2 || fail "the Python package does not import"
  python_import="ok"
fi
python_s=$(since "$t")

# 3. Java: the client compiled by Maven (no jar: the classes and the dependencies' classpath are enough), then the example.
t=$(now)
(cd "$out/java" && mvn -q -B compile dependency:build-classpath -Dmdep.outputFile="$out/java.classpath" >"$out/java-mvn.log" 2>&1) || {
  grep -E "ERROR|error:" "$out/java-mvn.log" | head -40 >&2
  fail "the Java client does not compile (log: $out/java-mvn.log)"
}
classpath="$out/java/target/classes:$(cat "$out/java.classpath")"
rm -rf "$out/exemplo-java"
javac -encoding UTF-8 -d "$out/exemplo-java" -cp "$classpath" "$root/examples/cliente-java/PrimeirosPassos.java" >&2 ||
  fail "examples/cliente-java does not compile against the generated client"
compilacao=$(since "$t")

execucao=null
if [[ -n "${FRETE_API_URL:-}" ]]; then
  t=$(now)
  java -cp "$out/exemplo-java:$classpath" PrimeirosPassos || fail "examples/cliente-java failed against $FRETE_API_URL"
  execucao=$(since "$t")
fi

printf '{"gerador":"%s","geracao_s":%s,"python_s":%s,"python_import":"%s","java_compilacao_s":%s,"java_execucao_s":%s}\n' \
  "$version" "$geracao" "$python_s" "$python_import" "$compilacao" "$execucao"
