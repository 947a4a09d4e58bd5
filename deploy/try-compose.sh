#!/usr/bin/env bash
# deploy/docker-compose.yml run for real, end to end, timed: images built, the stack up (Kafka,
# workers, `watch`, Prometheus), a BREC experiment through three workers, its results, the live
# page's and Prometheus' /metrics read back, then the workers scaled up (the new ones join the share
# group and run tasks) and down (the remaining one runs what follows), and the stack taken down.
#   deploy/try-compose.sh [--workers 3] [--scale-up 5] [--scale-down 1] [--keep] [--rebuild-base]
# Needs a Docker engine, docker compose (v2) or docker-compose (v1), curl, python3, and the jar
# (built here with ./mvnw -o if target/ has none). With no BASE_IMAGE in the environment it builds
# the images on the local Debian base of deploy/base-image.sh (made first if missing: root and
# debootstrap), for a machine that reaches no image registry; BASE_IMAGE=eclipse-temurin:17-jre and
# PROMETHEUS_BASE_IMAGE=debian:bookworm-slim use the public ones. Everything listens on 127.0.0.1
# (host network): 9092-9093 (Kafka), 9400 (live page), 9401-9416 (workers), 9090 (Prometheus) must be free.
# Prints one line per step with its time, and a summary table at the end (docs/results/deploy-compose.md).
set -euo pipefail
cd "$(dirname "$0")/.."

workers=3 scale_up=5 scale_down=1 keep=false rebuild_base=false
while [ $# -gt 0 ]; do
  case "$1" in
    --workers) workers="$2"; shift 2 ;;
    --scale-up) scale_up="$2"; shift 2 ;;
    --scale-down) scale_down="$2"; shift 2 ;;
    --keep) keep=true; shift ;;
    --rebuild-base) rebuild_base=true; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "deploy/try-compose.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

die() { echo "deploy/try-compose.sh: $*" >&2; exit 1; }
if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
  compose=(docker-compose)
else
  die "needs docker compose or docker-compose"
fi
docker info >/dev/null 2>&1 || die "no Docker engine answers (start dockerd)"
for tool in curl python3; do command -v "$tool" >/dev/null || die "needs $tool"; done
for port in 9092 9093 9090 9400 $(seq 9401 9416); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    die "port 127.0.0.1:$port is in use; the compose stack listens there"
  fi
done

export COMPOSE_PROJECT_NAME=${COMPOSE_PROJECT_NAME:-expresso-try}
export WORKER_DEVICES=${WORKER_DEVICES:-cpu:1}
dc() { "${compose[@]}" -f deploy/docker-compose.yml "$@"; }
# the image's CLI on the host's network, as an operator without Java runs it (publish, results)
cli() { docker run --rm --network host "$@"; }

t0=$(date +%s.%N)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
last=$t0
steps=()
step() {  # step NAME: the time since the previous step
  local now; now=$(date +%s.%N)
  local took; took=$(python3 -c "print(f'{$now - $last:.1f}')")
  steps+=("$1|$took")
  printf '%8s s  %s\n' "$took" "$1"
  last=$now
}
wait_until() {  # wait_until SECONDS WHAT COMMAND...: polls COMMAND every second
  local limit=$1 what=$2; shift 2
  local end=$(( $(date +%s) + limit ))
  until "$@"; do
    [ "$(date +%s)" -lt "$end" ] || die "gave up after ${limit} s waiting for $what"
    sleep 1
  done
}
work=$(mktemp -d /tmp/expresso-try.XXXXXX)
chmod 777 "$work"   # the containers' user (uid 10001) writes the results there
finish() {
  local rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "--- logs (last 40 lines per service) ---" >&2
    dc logs --no-color --tail 40 >&2 2>&1 || true
  fi
  if [ "$keep" = false ]; then
    dc down -v --remove-orphans >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap finish EXIT

# --- images -----------------------------------------------------------------------------------
if [ -z "${BASE_IMAGE:-}" ]; then
  export BASE_IMAGE=expresso-base:bookworm-jre17 PROMETHEUS_BASE_IMAGE=${PROMETHEUS_BASE_IMAGE:-expresso-base:bookworm-jre17}
  if [ "$rebuild_base" = true ] || ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
    deploy/base-image.sh --tag "$BASE_IMAGE"
    step "local base image $BASE_IMAGE (debootstrap bookworm + openjdk-17-jre-headless)"
  fi
fi
if ! ls target/expresso-*-all.jar >/dev/null 2>&1; then
  ./mvnw -B -q -o -DskipTests package
  step "jar built (./mvnw -o -DskipTests package)"
fi
dc build -q kafka prometheus
step "images built (expresso:cpu on $BASE_IMAGE, expresso-prometheus on ${PROMETHEUS_BASE_IMAGE:-debian:bookworm-slim})"

# --- the stack ----------------------------------------------------------------------------------
running() { dc ps -q "$1" | xargs -r docker inspect -f '{{.State.Running}}' | grep -c true || true; }
serving() {  # workers whose log says they serve
  local n=0 id
  for id in $(dc ps -q worker); do
    docker logs "$id" 2>&1 | grep -q ": serving " && n=$((n + 1))
  done
  echo "$n"
}
workers_serving() { [ "$(running worker)" -eq "$1" ] && [ "$(serving)" -eq "$1" ]; }
page_healthy() { curl -fsS -o /dev/null http://127.0.0.1:9400/health; }
prometheus_ready() { curl -fsS -o /dev/null http://127.0.0.1:9090/-/ready; }
promql() {  # promql QUERY: the first sample's value, or nothing
  curl -fsS --get --data-urlencode "query=$1" http://127.0.0.1:9090/api/v1/query |
    python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")'
}
targets_up() { [ "$(promql 'sum(up{job="expresso-workers"})')" = "$1" ]; }

dc up -d --scale worker="$workers" kafka worker aggregator prometheus >/dev/null 2>&1
wait_until 180 "$workers workers serving" workers_serving "$workers"
wait_until 120 "the live page's /health" page_healthy
wait_until 60 "Prometheus" prometheus_ready
step "stack up: Kafka (kafka.Kafka from the jar), $workers workers serving, watch healthy, Prometheus ready"

# --- a BREC experiment through the workers ------------------------------------------------------
brec=${BREC_EXCERPT:-/work/shared/data/brec-excerpt}
if [ -f "$brec/brec_excerpt.npy" ]; then
  suite_mount=(-v "$brec:/data:ro") suite=brec:/data/brec_excerpt.npy
else
  suite_mount=() suite=builtin
fi
experiment=compose-brec-$(date +%s)
cli "${suite_mount[@]}" expresso:cpu publish brec --bootstrap 127.0.0.1:9092 --suite "$suite" --model 3-wl \
  --experiment "$experiment" >"$work/publish.out" 2>&1 || { cat "$work/publish.out" >&2; die "publish failed"; }
tasks=$(grep -oE 'published [0-9]+' "$work/publish.out" | head -1 | grep -oE '[0-9]+' || true)
[ -n "$tasks" ] && [ "$tasks" -gt 0 ] || { cat "$work/publish.out" >&2; die "publish printed no task count"; }
step "published $experiment: $tasks pair tasks ($suite, 3-wl)"
cli -v "$work:/out" expresso:cpu results --bootstrap 127.0.0.1:9092 --experiment "$experiment" --wait "$tasks" \
  --json --out /out >"$work/results.json" 2>"$work/results.err" || { cat "$work/results.err" >&2; die "results failed"; }
step "results read back: $tasks of $tasks"
python3 - "$work/results.json" "$work/$experiment.results.jsonl" "$tasks" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
rows = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
want = int(sys.argv[3])
assert summary["unique_results"] == want and summary["errors"] == 0, summary
workers = {r["provenance"]["worker_id"] for r in rows}
cats = ", ".join(f"{c['name']} {c['distinguished']}/{c['tasks']} distinguished" for c in summary["categories"])
print(f'           {summary["unique_results"]} unique results, {summary["errors"]} errors, '
      f'{summary["duplicate_records"]} duplicate records; ran on {len(workers)} worker(s); {cats}')
PY

# --- /metrics: the live page's own and Prometheus' scrape --------------------------------------
curl -fsS http://127.0.0.1:9400/metrics >"$work/page.metrics"
grep -F "experiment=\"$experiment\"" "$work/page.metrics" | grep -q . || die "the live page's /metrics does not name $experiment"
echo "           live page /metrics: $(grep -F "experiment=\"$experiment\"" "$work/page.metrics" | grep -m1 '^expresso_pairs_evaluated_total')"
wait_until 60 "Prometheus to scrape $workers workers" targets_up "$workers"
done_query="sum(expresso_tasks_completed_total{job=\"expresso-workers\"})"
wait_until 60 "Prometheus to count $tasks completed tasks" \
  python3 -c "import sys; sys.exit(0 if float('0' + '$(promql "$done_query")') >= $tasks else 1)"
echo "           Prometheus: $(promql 'sum(up{job="expresso-workers"})') worker targets up," \
  "$(promql "$done_query") tasks completed by workers, aggregator up=$(promql 'up{job="expresso-aggregator"}')"
step "metrics read back (live page and Prometheus)"

# --- scale up: new workers join the share group and take tasks -----------------------------------
worker_ids() {  # the ids of the running workers, from their "serving" line
  local id
  for id in $(dc ps -q worker); do
    docker logs "$id" 2>&1 | sed -n 's/^worker \(worker-[0-9a-f]*\): serving .*/\1/p'
  done | sort
}
synthetic() {  # synthetic COUNT WORK_MS SINCE_MS NEW_IDS: publishes, waits for every result, says who ran them
  local e=compose-synthetic-$(date +%s%N)
  cli expresso:cpu publish synthetic --bootstrap 127.0.0.1:9092 --count "$1" --work-ms "$2" --experiment "$e" >/dev/null 2>&1
  cli -v "$work:/out" expresso:cpu results --bootstrap 127.0.0.1:9092 --experiment "$e" --wait "$1" --json --out /out \
    >"$work/$e.json" 2>/dev/null
  python3 - "$work/$e.json" "$work/$e.results.jsonl" "$1" "$3" "$4" <<'PY'
import collections, json, sys
summary = json.load(open(sys.argv[1]))
assert summary["unique_results"] == int(sys.argv[3]) and summary["errors"] == 0, summary
rows = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
per = collections.Counter(r["provenance"]["worker_id"] for r in rows)
new = sys.argv[5].split()
firsts = [int(r["provenance"]["started_at_ms"]) for r in rows if r["provenance"]["worker_id"] in new]
first = f"{(min(firsts) - int(sys.argv[4])) / 1000:.1f}" if firsts else "-"
print(len(per), sum(per[w] > 0 for w in new), first, ",".join(f"{w}:{n}" for w, n in sorted(per.items())))
PY
}
before=$(worker_ids)
scaled_at=$(date +%s%3N)
dc up -d --no-recreate --scale worker="$scale_up" worker >/dev/null 2>&1
wait_until 180 "$scale_up workers serving" workers_serving "$scale_up"
added=$(comm -13 <(echo "$before") <(worker_ids) | tr '\n' ' ')
step "scaled up: $scale_up workers serving (up -d --scale worker=$scale_up; added: $added)"
count=$((scale_up * 6))
read -r ran ran_new first per_worker < <(synthetic "$count" 2000 "$scaled_at" "$added")
[ "$ran_new" -gt 0 ] || die "after scaling up to $scale_up, none of the added workers ($added) ran a task: $per_worker"
step "$count synthetic tasks of 2 s, each once, on $ran of $scale_up workers ($ran_new added ones; the first ${first} s after the scale command): $per_worker"
if [ "$ran" -lt "$scale_up" ]; then
  echo "           note: $((scale_up - ran)) worker(s) ran none of them: with Kafka's default share assignor a" \
    "member serves only the partitions it is assigned (issue 42, item 1)"
fi
wait_until 60 "Prometheus to scrape $scale_up workers" targets_up "$scale_up"

# --- scale down: the workers stopped leave, the rest run what follows ----------------------------
since=$(date +%s)
dc up -d --no-recreate --scale worker="$scale_down" worker >/dev/null 2>&1
wait_until 180 "$scale_down workers left running" workers_serving "$scale_down"
# how the stopped ones ended: 143 = SIGTERM honoured (drained, left the group), 137 = killed after the grace period
exits=$(docker events --since "$since" --until "$(date +%s)" --filter event=die \
  --filter "label=com.docker.compose.project=$COMPOSE_PROJECT_NAME" --filter label=com.docker.compose.service=worker \
  --format '{{.Actor.Attributes.exitCode}}' | sort | uniq -c | awk '{printf "%s%s x exit %s", (NR > 1 ? ", " : ""), $1, $2}')
case "$exits" in *"exit 137"*) die "a worker was killed after the grace period on scaling down: $exits" ;; esac
step "scaled down: $scale_down worker(s) left; the others stopped on SIGTERM ($exits)"
left=$(worker_ids | tr '\n' ' ')
read -r ran ran_left first per_worker < <(synthetic 6 500 "$(date +%s%3N)" "$left")
[ "$ran" -eq "$scale_down" ] && [ "$ran_left" -eq "$scale_down" ] ||
  die "after scaling down to $scale_down ($left), tasks ran on $ran workers: $per_worker"
step "6 synthetic tasks of 0.5 s on the $scale_down remaining worker(s): $per_worker"
wait_until 60 "Prometheus to see $scale_down workers" targets_up "$scale_down"

if [ "$keep" = false ]; then
  dc down -v --remove-orphans >/dev/null 2>&1
  step "stack down (down -v)"
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores; at the start: $load0)"
total=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.1f}')")
echo
echo "| step | seconds |"
echo "|---|---:|"
for s in "${steps[@]}"; do echo "| ${s%|*} | ${s##*|} |"; done
echo "| total | $total |"
echo "compose: ${compose[*]} ($("${compose[@]}" version --short 2>/dev/null || true)), engine $(docker version -f '{{.Server.Version}}'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
