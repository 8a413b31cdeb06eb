#!/usr/bin/env bash
# Stops the broker that deploy/kafka/start.sh started for the same run dir (KAFKA_RUN_NAME / KAFKA_RUN_DIR), by its
# pid: SIGTERM, a bounded wait for the controlled shutdown, then SIGKILL. Does nothing when it is not running.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
run_dir="${KAFKA_RUN_DIR:-$here/run/${KAFKA_RUN_NAME:-default}}"
if [[ ! -d "$run_dir" ]]; then
  echo "kafka: no run dir $run_dir, nothing to stop" >&2
  exit 0
fi
run_dir="$(cd "$run_dir" && pwd)"
pid_file="$run_dir/kafka.pid"
props="$run_dir/server.properties"
wait_s="${KAFKA_STOP_TIMEOUT:-30}"

if [[ ! -f "$pid_file" ]]; then
  echo "kafka: not running (no pid file in $run_dir)" >&2
  exit 0
fi
pid="$(cat "$pid_file")"
# Only a live broker of this run dir (the pid may have been recycled since).
if ! [[ "$pid" =~ ^[0-9]+$ ]] || ! kill -0 "$pid" 2>/dev/null ||
  ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "kafka.Kafka $props"; then
  echo "kafka: not running (stale pid file removed)" >&2
  rm -f "$pid_file"
  exit 0
fi

kill -TERM "$pid"
deadline=$((SECONDS + wait_s))
while kill -0 "$pid" 2>/dev/null; do
  if ((SECONDS >= deadline)); then
    echo "kafka: pid $pid still alive after ${wait_s}s, killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
    break
  fi
  sleep 0.2
done
rm -f "$pid_file"
echo "kafka: stopped (pid $pid)" >&2
