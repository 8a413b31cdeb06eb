#!/usr/bin/env bash
# Starts a local single-node Apache Kafka broker (KRaft: one process is broker and controller) from Maven Central
# artifacts with the machine's Java, for tests and local runs. No Docker needed.
#
#   deploy/kafka/start.sh            # prints KAFKA_BROKERS=127.0.0.1:<port> on its last line
#   deploy/kafka/stop.sh             # stops it again (by its pid)
#
# Environment (all optional):
#   KAFKA_RUN_NAME   name of the run dir under deploy/kafka/run/ (default: default)
#   KAFKA_RUN_DIR    full path of the run dir instead (config, data, log and pid live there)
#   KAFKA_PORT       client port (default 19092; when not given and busy, the next free one is taken)
#   KAFKA_CONTROLLER_PORT  controller port (default 19093; same rule)
#   KAFKA_CLEAN=1    wipe the run dir's data before starting (ignored when the broker is already running)
#   KAFKA_START_TIMEOUT  seconds to wait for the port (default 90)
#   KAFKA_HEAP       JVM heap (default 512m)
#
# Idempotent: when the broker of this run dir is already running, it only prints the brokers line.
# Listens on 127.0.0.1 only.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
run_dir="${KAFKA_RUN_DIR:-$here/run/${KAFKA_RUN_NAME:-default}}"
mkdir -p "$run_dir"
run_dir="$(cd "$run_dir" && pwd)"
pid_file="$run_dir/kafka.pid"
port_file="$run_dir/kafka.port"
log_file="$run_dir/kafka.log"
props="$run_dir/server.properties"
timeout_s="${KAFKA_START_TIMEOUT:-90}"

fail() {
  echo "kafka: $*" >&2
  exit 1
}

command -v java >/dev/null 2>&1 || fail "java is not on PATH"

# Is something listening on 127.0.0.1:$1?
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Is the pid in $pid_file a live broker of this run dir? (Guards against a recycled pid.)
running_pid() {
  [[ -f "$pid_file" ]] || return 1
  local pid
  pid="$(cat "$pid_file")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "kafka.Kafka $props" || return 1
  echo "$pid"
}

# One start at a time per run dir (a second caller waits, then finds it running).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$run_dir/.start.lock"
  flock -w 300 9 || fail "another start.sh holds $run_dir/.start.lock"
fi

if pid="$(running_pid)"; then
  port="$(cat "$port_file")"
  echo "kafka: already running (pid $pid) in $run_dir" >&2
  echo "KAFKA_BROKERS=127.0.0.1:$port"
  exit 0
fi
rm -f "$pid_file"

# 1. The classpath, once (and again when pom.xml names another Kafka version).
kafka_version="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/pom.xml")"
if [[ ! -f "$here/lib/kafka_2.13-$kafka_version.jar" ]]; then
  command -v mvn >/dev/null 2>&1 || fail "mvn is not on PATH and $here/lib has no Kafka $kafka_version"
  echo "kafka: collecting Kafka $kafka_version and its dependencies into $here/lib (Maven)" >&2
  rm -rf "$here/lib"
  (cd "$here" && mvn -q -B dependency:copy-dependencies -DoutputDirectory=lib -DincludeScope=runtime) >&2 ||
    fail "mvn could not collect the classpath"
fi

# 2. Ports: the ones asked for, or the defaults, or the next free ones.
pick_port() { # $1 = asked (may be empty), $2 = first to try, $3 = port to avoid
  local p
  if [[ -n "$1" ]]; then
    port_open "$1" && fail "port $1 is already in use"
    echo "$1"
    return
  fi
  for ((p = $2; p < $2 + 200; p++)); do
    if [[ "$p" != "$3" ]] && ! port_open "$p"; then
      echo "$p"
      return
    fi
  done
  fail "no free port from $2 on"
}

# 3. Configuration.
if [[ "${KAFKA_CLEAN:-}" == "1" ]]; then
  rm -rf "$run_dir/data"
fi
mkdir -p "$run_dir/data"
write_config() { # $1 = client port, $2 = controller port
  cat >"$props" <<EOF
# Written by deploy/kafka/start.sh; rewritten at every start.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$2
listeners=PLAINTEXT://127.0.0.1:$1,CONTROLLER://127.0.0.1:$2
advertised.listeners=PLAINTEXT://127.0.0.1:$1
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
log.dirs=$run_dir/data
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=${KAFKA_OFFSETS_PARTITIONS:-5}
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=5
group.initial.rebalance.delay.ms=0
# Topics are created on purpose, with their partitions (the relay does it), never by a stray metadata request.
auto.create.topics.enable=false
delete.topic.enable=true
num.network.threads=2
num.io.threads=4
log.retention.hours=24
EOF
}
cat >"$run_dir/log4j.properties" <<'EOF'
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka=INFO
log4j.logger.org.apache.kafka=INFO
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.log.LogCleaner=WARN
EOF

cd "$here"
java_opts=(-Xmx"${KAFKA_HEAP:-512m}" -Xms128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true
  -Dlog4j.configuration="file:$run_dir/log4j.properties" -Dkafka.logs.dir="$run_dir")

show_log() {
  echo "---- last lines of $log_file ----" >&2
  tail -n 40 "$log_file" >&2
}
[[ -f "$log_file" ]] && mv -f "$log_file" "$log_file.prev"
touch "$log_file"
# Did the broker started at log line $1 fail to bind a port?
bind_failed() {
  tail -n +"$(($1 + 1))" "$log_file" | grep -q 'Address already in use'
}
# Has the broker started at log line $1 said it is up? (The open port alone could be another process's.)
said_started() {
  tail -n +"$(($1 + 1))" "$log_file" | grep -q 'Kafka Server started'
}

# 4.-6. Format the storage (once per data dir), start in the background, wait for the port. When the ports were
# picked here (not given) and another process took one of them meanwhile, try again with the next free ones.
first_port=19092
for _attempt in 1 2 3; do
  port="$(pick_port "${KAFKA_PORT:-}" "$first_port" "")"
  controller_port="$(pick_port "${KAFKA_CONTROLLER_PORT:-}" $((first_port + 1)) "$port")"
  [[ "$port" != "$controller_port" ]] || fail "client and controller port are both $port"
  write_config "$port" "$controller_port"
  echo "$port" >"$port_file"

  if [[ ! -f "$run_dir/data/meta.properties" ]]; then
    cluster_id="$(java "${java_opts[@]}" -cp 'lib/*' kafka.tools.StorageTool random-uuid 2>&1 | tail -n 1)" || true
    [[ "$cluster_id" =~ ^[A-Za-z0-9_-]{22}$ ]] || fail "StorageTool random-uuid failed: $cluster_id"
    java "${java_opts[@]}" -cp 'lib/*' kafka.tools.StorageTool format -t "$cluster_id" -c "$props" >>"$log_file" 2>&1 ||
      { show_log; fail "formatting the storage failed"; }
  fi

  echo "kafka: starting on 127.0.0.1:$port (controller $controller_port), run dir $run_dir" >&2
  log_mark="$(wc -l <"$log_file")"
  # A session of its own, detached from this shell's streams: it outlives the caller.
  setsid java "${java_opts[@]}" -cp 'lib/*' kafka.Kafka "$props" </dev/null >>"$log_file" 2>&1 9>&- &
  pid=$!
  echo "$pid" >"$pid_file"

  # Up when this broker says so and its port answers.
  deadline=$((SECONDS + timeout_s))
  until said_started "$log_mark" && port_open "$port"; do
    kill -0 "$pid" 2>/dev/null || break
    if bind_failed "$log_mark"; then break; fi
    if ((SECONDS >= deadline)); then
      show_log
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      kill -KILL "$pid" 2>/dev/null || true
      rm -f "$pid_file"
      fail "the broker did not accept connections on 127.0.0.1:$port within ${timeout_s}s"
    fi
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null && said_started "$log_mark" && ! bind_failed "$log_mark"; then
    echo "kafka: up (pid $pid)" >&2
    echo "KAFKA_BROKERS=127.0.0.1:$port"
    exit 0
  fi
  # It failed: make sure it is gone before deciding what next.
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$pid_file"
  if [[ -z "${KAFKA_PORT:-}${KAFKA_CONTROLLER_PORT:-}" ]] && bind_failed "$log_mark"; then
    echo "kafka: a port was taken meanwhile, trying others" >&2
    first_port=$((controller_port + 1))
    continue
  fi
  show_log
  fail "the broker exited during start-up"
done
show_log
fail "could not find free ports to start on"
