#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/registry.sh GPULINT: images read straight from a registry (docker://), against the
# real distribution registry (Debian's docker-registry) started here on 127.0.0.1 with its
# own config, images pushed by skopeo from the umoci layouts of fixtures/images/build.sh.
#
#  - anonymous over plain http (--tls-verify=false): the config's findings (GL201 from
#    CUDA_VERSION, GL205) equal the ones an archive's config gives; a two-platform index
#    gives both platforms, --platform one; a @sha256: reference; manifest + config only:
#    exactly one blob GET per image; GL101 on a `latest` reference;
#  - Basic auth (htpasswd, bcrypt by htpasswd -B) over TLS (a CA and a 127.0.0.1 server
#    certificate made by openssl): --creds, $REGISTRY_AUTH_FILE, ~/.docker/config.json;
#    a credHelpers entry is named as out of scope; no credentials: one line, exit 2;
#    without the CA: a TLS line, exit 2; --cert-dir and --tls-verify=false read it;
#  - the Bearer token flow (tests/lib/token_service.py signs the registry's JWTs);
#  - faults (tests/lib/registry_stub.py): a stalled server (timeout), a config whose
#    bytes do not match its digest (GL900), 429/503 then success (retried), a manifest
#    over 4 MiB (GL900), a blob redirected to another host (followed, without the
#    Authorization header); 404: one line, exit 2, the other inputs still linted;
#  - the transports oci-archive:, docker-archive:, oci:DIR:TAG;
#  - --layers: the layers streamed give the archive's findings, within 64 MiB, cached by
#    digest (a second run fetches the config only); a redirected layer (no Authorization
#    to the CDN), a layer whose bytes do not match its digest (GL900), a stalled stream;
#  - --inspect-images: a Dockerfile FROM and a compose image of the local registry whose
#    config says CUDA 13.0 give GL201 naming the registry's config; off by default; each
#    image fetched once a run, its config cached by digest; a 404 is one stderr line and
#    changes no other finding;
#  - config-level checks: GL203/GL301/GL302 from the history entries of the images of
#    fixtures/images/history/ (must fire and must not), the same from the config alone
#    and with the layers, where a layer's file wins over its history entry;
#  - no password in any report or on stderr.
# Exit 77 when docker-registry, skopeo, umoci, htpasswd or openssl is missing.
set -uo pipefail
gpulint=$(realpath "${1:?usage: tests/registry.sh path/to/gpulint}")
here=$(cd "$(dirname "$0")/.." && pwd)
for t in docker-registry skopeo umoci htpasswd openssl python3; do
  command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }
done
work=$(mktemp -d /tmp/gpulint-registry.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$work"; }
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export NO_PROXY=127.0.0.1 no_proxy=127.0.0.1
export HOME=$work/home XDG_CACHE_HOME=$work/cache XDG_RUNTIME_DIR=$work/run
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
unset REGISTRY_AUTH_FILE DOCKER_CONFIG

bash "$here/fixtures/images/build.sh" "$work/img" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; echo "FAIL: building the test images"; exit 1; }
img=$work/img
sk() { skopeo --insecure-policy --tmpdir "$work" "$@" >>"$work/skopeo.log" 2>&1; }
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 100); do
    python3 -c 'import socket,sys;socket.create_connection(("127.0.0.1",int(sys.argv[1])),0.2)' "$1" \
      2>/dev/null && return 0; sleep 0.1; done; return 1; }
wait_file() { for _ in $(seq 100); do [ -s "$1" ] && return 0; sleep 0.1; done; return 1; }

# start_registry NAME EXTRA_YAML: a registry on a free port; sets $port
start_registry() {
  port=$(free_port)
  mkdir -p "$work/$1"
  { printf 'version: 0.1\nlog:\n  level: info\nstorage:\n  filesystem:\n    rootdirectory: %s\n' "$work/$1/store"
    printf 'http:\n  addr: 127.0.0.1:%s\n' "$port"; printf '%s\n' "$2"; } > "$work/$1/config.yml"
  docker-registry serve "$work/$1/config.yml" >"$work/$1/log" 2>&1 &
  pids+=($!)
  wait_port "$port" || { cat "$work/$1/log"; echo "FAIL: registry $1 did not start"; exit 1; }
}
gets() { grep -o '"GET /v2/[^ ]*' "$1" | grep -c "$2"; }
findings() { python3 -c '
import json, sys
d = json.load(sys.stdin)
for f in d["findings"]:
    print(f["rule"], f["line"], f["message"])' | sed -E 's/layer sha256:[0-9a-f]{12}/layer L/g' | sort; }

# ---- anonymous, plain http ----
start_registry plain ""
plain=127.0.0.1:$port
sk copy --dest-tls-verify=false oci:"$img/oci":gpu docker://$plain/ml/gpu:1.0
sk copy --dest-tls-verify=false oci:"$img/clean":1.0 docker://$plain/ml/clean:latest
sk copy --all --dest-tls-verify=false oci:"$img/multi" docker://$plain/ml/multi:2.0
reg() { "$gpulint" --driver 535 --tls-verify=false -f json "$@" 2>"$work/stderr"; }
# the same, in a pipeline (its exit status is not the pipeline's)
regp() { reg "$@"; return 0; }

before=$(gets "$work/plain/log" /blobs/)
reg docker://$plain/ml/gpu:1.0 > "$work/gpu.json"; rc=$?
after=$(gets "$work/plain/log" /blobs/)
findings < "$work/gpu.json" > "$work/gpu"
[ "$rc" = 1 ] && pass "registry image: exit 1 on its error" || fail "registry image: exit $rc"
grep -q '^GL201 0 CUDA 12.4.1 (image config ENV CUDA_VERSION)' "$work/gpu" &&
  pass "GL201 from the config's CUDA_VERSION" || { fail "no GL201 from the config"; cat "$work/gpu"; }
grep -q '^GL205 0 NVIDIA_DRIVER_CAPABILITIES=utility' "$work/gpu" &&
  pass "GL205 from the config's env" || fail "no GL205"
grep -q "docker://$plain/ml/gpu:1.0" "$work/gpu.json" && pass "findings name the reference" ||
  fail "findings do not name the reference"
[ $((after - before)) = 1 ] && pass "manifest + config: exactly one blob GET" ||
  fail "$((after - before)) blob GETs (want 1)"
# the archive's config gives the same GL205 (the env is the config's in both)
{ "$gpulint" --driver 535 --no-cache -f json "$img/oci" || :; } | findings | grep '^GL205' > "$work/arch205"
grep '^GL205' "$work/gpu" | diff -q - "$work/arch205" >/dev/null &&
  pass "GL205 as the archive gives it" || fail "GL205 differs from the archive's"

digest=$(skopeo inspect --tls-verify=false --format '{{.Digest}}' docker://$plain/ml/gpu:1.0 2>/dev/null)
regp docker://$plain/ml/gpu@"$digest" | findings > "$work/bydigest"
diff -q "$work/gpu" "$work/bydigest" >/dev/null && pass "@sha256: reference" ||
  { fail "@sha256: reference differs"; diff "$work/gpu" "$work/bydigest"; }

reg --no-cache docker://$plain/ml/multi:2.0 > "$work/multi.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["summary"]["files"])' \
  "$work/multi.json" | grep -x >/dev/null 1 && pass "index: one input" || fail "index: summary"
n=$(gets "$work/plain/log" "ml/multi/blobs/")
[ "$n" = 2 ] && pass "index: both platforms' configs fetched" || fail "index: $n config GETs"
reg --no-cache --platform linux/arm64 docker://$plain/ml/multi:2.0 > /dev/null
n=$(gets "$work/plain/log" "ml/multi/blobs/")
[ "$n" = 3 ] && pass "--platform: one config" || fail "--platform: $n config GETs in all"
regp --platform linux/s390x docker://$plain/ml/multi:2.0 | grep >/dev/null 'no image for platform' &&
  pass "--platform absent: GL900" || fail "--platform absent"

regp docker://$plain/ml/clean:latest | findings > "$work/latest"
grep -q '^GL101 0 ' "$work/latest" && pass "GL101 on a latest reference" || fail "no GL101"
regp docker://$plain/ml/clean | findings | grep >/dev/null '^GL101 0 .*has no tag' &&
  pass "GL101 on a reference without a tag" || fail "no GL101 without a tag"

# 404: one line, exit 2; the other input goes on
reg docker://$plain/ml/none:1 docker://$plain/ml/gpu:1.0 > "$work/two.json"; rc=$?
[ "$rc" = 2 ] && pass "404: exit 2" || fail "404: exit $rc"
[ "$(wc -l < "$work/stderr")" = 1 ] && grep -q 'ml/none:1: HTTP 404' "$work/stderr" &&
  pass "404: one line" || { fail "404 line"; cat "$work/stderr"; }
findings < "$work/two.json" | diff -q - "$work/gpu" >/dev/null &&
  pass "the other input is linted" || fail "the other input"
reg 'docker://$$$' >/dev/null; rc=$?
[ "$rc" = 2 ] && grep -q 'not an image reference' "$work/stderr" && pass "bad reference: exit 2" ||
  fail "bad reference: exit $rc"

# ---- transports ----
for t in "oci-archive:$img/oci-archive.tar" "docker-archive:$img/docker-archive.tar" \
         "oci:$img/oci:gpu" "oci:$img/oci"; do
  { "$gpulint" --driver 535 --no-cache -f json "$t" || :; } | findings > "$work/t"
  { "$gpulint" --driver 535 --no-cache -f json "$img/oci" || :; } | findings > "$work/t0"
  [ -s "$work/t" ] && diff -q "$work/t0" "$work/t" >/dev/null && pass "transport $t" ||
    fail "transport $t"
done
{ "$gpulint" --no-cache -f json "oci:$img/oci:nosuch" || :; } | grep >/dev/null 'no image tagged' &&
  pass "oci:DIR:TAG of an absent tag: GL900" || fail "oci:DIR:absent"

# ---- --layers: the layers streamed through the archive's reader, limits and cache ----
reg --layers --no-cache docker://$plain/ml/gpu:1.0 > "$work/layers.json"
findings < "$work/layers.json" > "$work/layers"
{ "$gpulint" --driver 535 --no-cache -f json "oci-archive:$img/oci-archive.tar" || :; } |
  findings > "$work/layers0"
grep -q '^GL203 0 the image ships the NVIDIA driver' "$work/layers" && diff -q "$work/layers0" "$work/layers" >/dev/null &&
  pass "--layers: the archive's findings (driver file, nvcc, compiler, data)" ||
  { fail "--layers differs from the archive"; diff "$work/layers0" "$work/layers"; cat "$work/stderr"; }
: > "$work/plain/log.mark"; before=$(gets "$work/plain/log" "ml/gpu/blobs/")
/usr/bin/time -f %M -o "$work/layers.rss" "$gpulint" --driver 535 --tls-verify=false --layers \
  -f json docker://$plain/ml/gpu:1.0 > "$work/layers-cold.json" 2>/dev/null
mid=$(gets "$work/plain/log" "ml/gpu/blobs/")
reg --layers docker://$plain/ml/gpu:1.0 | findings > "$work/layers-warm"
after=$(gets "$work/plain/log" "ml/gpu/blobs/")
rss=$(tail -1 "$work/layers.rss")
[ "$rss" -le 65536 ] && pass "--layers: peak RSS $((rss / 1024)) MiB (a 120 MiB file streamed)" ||
  fail "--layers: peak RSS $((rss / 1024)) MiB over 64"
[ $((mid - before)) -gt 1 ] && [ $((after - mid)) = 0 ] && diff -q "$work/layers" "$work/layers-warm" >/dev/null &&
  pass "--layers: cached by digest (a second run fetches no blob: layer indexes and config cached)" ||
  fail "--layers cache: $((mid - before)) then $((after - mid)) blob GETs"
regp --layers --no-cache docker://$plain/ml/multi:2.0 | python3 -c '
import json, sys
d = json.load(sys.stdin)
driver = [f for f in d["findings"] if f["rule"] == "GL203"]
sys.exit(0 if len(driver) == 1 and "linux/amd64" in driver[0]["message"] else 1)' &&
  pass "--layers on an index: every platform's layers" || fail "--layers on an index"

# ---- --inspect-images: the configs of the images a Dockerfile, compose file or run names ----
umoci new --image "$work/img/clean:train" >/dev/null 2>&1
umoci config --image "$work/img/clean:train" --config.env CUDA_VERSION=13.0.0 \
  --config.env NVIDIA_REQUIRE_CUDA='cuda>=13.0' --os linux --architecture amd64 >/dev/null 2>&1
sk copy --dest-tls-verify=false oci:"$work/img/clean":train docker://$plain/team/train:1.4
insp=$work/inspect; mkdir -p "$insp"
printf 'FROM %s/team/train:1.4\nCOPY train.py /app/\n' "$plain" > "$insp/Dockerfile"
printf 'services:\n  train:\n    image: %s/team/train:1.4\n    gpus: all\n  gone:\n    image: %s/team/none:2\n    gpus: all\n' \
  "$plain" "$plain" > "$insp/compose.yaml"
{ "$gpulint" --driver 535 --tls-verify=false -f json "$insp" 2>"$work/stderr" || :; } | findings > "$work/insp0"
before=$(gets "$work/plain/log" "team/")
{ "$gpulint" --driver 535 --tls-verify=false --inspect-images -f json "$insp" 2>"$work/stderr" || :; } |
  findings > "$work/insp1"
after=$(gets "$work/plain/log" "team/")
grep -q "^GL201 1 CUDA 13.0.0 (CUDA_VERSION in the registry's config of $plain/team/train:1.4, line 1)" "$work/insp1" &&
  pass "--inspect-images: GL201 on a FROM, the CUDA from the registry's config" ||
  { fail "--inspect-images: no GL201 on the FROM"; cat "$work/insp1" "$work/stderr"; }
grep "^GL201" "$work/insp1" | grep >/dev/null "compose.yaml\|NVIDIA_REQUIRE_CUDA" ; 
[ "$(grep -c '^GL201' "$work/insp0")" = 0 ] && pass "--inspect-images off by default: no lookup, no GL201" ||
  fail "GL201 without --inspect-images"
[ "$(grep -c "team/train/manifests" <(grep -o '"GET /v2/[^ ]*' "$work/plain/log"))" -ge 1 ] &&
  [ $((after - before)) -le 3 ] && pass "--inspect-images: each image fetched once a run ($((after - before)) GETs)" ||
  fail "--inspect-images: $((after - before)) GETs for two images"
[ "$(grep -c . "$work/stderr")" = 1 ] && grep -q "team/none:2" "$work/stderr" &&
  pass "--inspect-images: an image it cannot fetch is one stderr line" ||
  { fail "--inspect-images: stderr"; cat "$work/stderr"; }
before=$(gets "$work/plain/log" "team/train/blobs/")
{ "$gpulint" --driver 535 --tls-verify=false --inspect-images -f json "$insp" 2>/dev/null || :; } |
  findings > "$work/insp2"
after=$(gets "$work/plain/log" "team/train/blobs/")
[ $((after - before)) = 0 ] && diff -q "$work/insp1" "$work/insp2" >/dev/null &&
  pass "--inspect-images: a config already read comes from the cache by its digest" ||
  fail "--inspect-images cache: $((after - before)) config GETs on the second run"
grep -v "^GL201\|^GL204" "$work/insp0" > "$work/insp0.rest"; grep -v "^GL201\|^GL204" "$work/insp1" > "$work/insp1.rest"
diff -q "$work/insp0.rest" "$work/insp1.rest" >/dev/null && pass "--inspect-images: the other findings unchanged" ||
  { fail "--inspect-images changed other findings"; diff "$work/insp0.rest" "$work/insp1.rest"; }

# ---- config-level checks: the history of fixtures/images/history/*.history ----
# From the config alone (docker://) each image gives NAME.expected; read with its layers
# (the OCI layout) the same, or NAME.layers.expected where a layer's file shows the fact
# (the file finding wins: one finding, not two). UPDATE=1 rewrites the expectations.
hist=$here/fixtures/images/history
bash "$hist/build.sh" "$work/hist" >>"$work/build.log" 2>&1 || { fail "building the history images"; tail "$work/build.log"; }
msgs() { python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    print(f["rule"], f["line"], f["message"])' | sed -E 's/layer sha256:[0-9a-f]{12}/layer L/g' | sort; }
for recipe in "$hist"/*.history; do
  name=$(basename "$recipe" .history)
  sk copy --dest-tls-verify=false oci:"$work/hist/$name":1.0 docker://$plain/hist/$name:1.0
  { "$gpulint" --tls-verify=false -f json docker://$plain/hist/$name:1.0 2>>"$work/stderr" || :; } |
    msgs > "$work/h-$name"
  { "$gpulint" --no-cache -f json "oci:$work/hist/$name:1.0" || :; } | msgs > "$work/hl-$name"
  want=$hist/$name.expected; lwant=$hist/$name.layers.expected
  [ -e "$lwant" ] || lwant=$want
  if [ -n "${UPDATE:-}" ]; then
    cp "$work/h-$name" "$want"
    cmp -s "$work/hl-$name" "$want" || cp "$work/hl-$name" "$hist/$name.layers.expected"
  fi
  diff -q "$want" "$work/h-$name" >/dev/null && pass "history $name: config alone" ||
    { fail "history $name: config alone"; diff "$want" "$work/h-$name"; }
  diff -q "$lwant" "$work/hl-$name" >/dev/null && pass "history $name: with its layers" ||
    { fail "history $name: with its layers"; diff "$lwant" "$work/hl-$name"; }
done

# ---- TLS + Basic auth (htpasswd, bcrypt) ----
pass_basic='S3cret-Basic-Pw-71'
tls=$work/tls; mkdir -p "$tls"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=gpulint-test-ca \
  -keyout "$tls/ca.key" -out "$tls/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout "$tls/server.key" \
  -out "$tls/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' > "$tls/ext"
openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" -CAcreateserial \
  -days 2 -extfile "$tls/ext" -out "$tls/server.crt" 2>/dev/null
htpasswd -Bbn alice "$pass_basic" > "$work/htpasswd"
start_registry basic "$(printf '  tls:\n    certificate: %s\n    key: %s\nauth:\n  htpasswd:\n    realm: gpulint-test\n    path: %s' \
  "$tls/server.crt" "$tls/server.key" "$work/htpasswd")"
basic=127.0.0.1:$port
certs=$work/certs; mkdir -p "$certs"; cp "$tls/ca.crt" "$certs/"
sk copy --dest-cert-dir "$certs" --dest-creds "alice:$pass_basic" oci:"$img/oci":gpu \
  docker://$basic/ml/gpu:1.0 || fail "push to the Basic registry"
sec() { "$gpulint" --driver 535 -f json "$@" 2>>"$work/stderr.all"; }
secp() { sec "$@"; return 0; }
: > "$work/stderr.all"
sec --cert-dir "$certs" --creds "alice:$pass_basic" docker://$basic/ml/gpu:1.0 > "$work/b1.json"
findings < "$work/b1.json" | diff -q - "$work/gpu" >/dev/null && pass "Basic via --creds, TLS via --cert-dir" ||
  { fail "Basic --creds"; tail -3 "$work/stderr.all"; }
sec --cert-dir "$certs" docker://$basic/ml/gpu:1.0 > "$work/b2.json"; rc=$?
[ "$rc" = 2 ] && tail -1 "$work/stderr.all" | grep >/dev/null 'HTTP 401' && pass "no credentials: 401 line, exit 2" ||
  fail "no credentials: exit $rc"
sec --cert-dir "$certs" --creds "alice:wrong-$pass_basic" docker://$basic/ml/gpu:1.0 > /dev/null; rc=$?
[ "$rc" = 2 ] && tail -1 "$work/stderr.all" | grep >/dev/null 'were refused' && pass "wrong password: exit 2" ||
  fail "wrong password: exit $rc"
printf '{"auths":{"%s":{"auth":"%s"}}}' "$basic" "$(printf 'alice:%s' "$pass_basic" | base64 -w0)" \
  > "$work/auth.json"
REGISTRY_AUTH_FILE=$work/auth.json secp --cert-dir "$certs" docker://$basic/ml/gpu:1.0 \
  | findings | diff -q - "$work/gpu" >/dev/null && pass "\$REGISTRY_AUTH_FILE" || fail "\$REGISTRY_AUTH_FILE"
mkdir -p "$XDG_RUNTIME_DIR/containers" && cp "$work/auth.json" "$XDG_RUNTIME_DIR/containers/auth.json"
secp --cert-dir "$certs" docker://$basic/ml/gpu:1.0 | findings | diff -q - "$work/gpu" >/dev/null &&
  pass "\$XDG_RUNTIME_DIR/containers/auth.json" || fail "XDG auth.json"
rm "$XDG_RUNTIME_DIR/containers/auth.json"
mkdir -p "$HOME/.docker"
printf '{"auths":{"https://%s":{"auth":"%s"}}}' "$basic" \
  "$(printf 'alice:%s' "$pass_basic" | base64 -w0)" > "$HOME/.docker/config.json"
secp --cert-dir "$certs" docker://$basic/ml/gpu:1.0 | findings | diff -q - "$work/gpu" >/dev/null &&
  pass "~/.docker/config.json" || fail "~/.docker/config.json"
printf '{"credHelpers":{"%s":"secretservice"}}' "$basic" > "$HOME/.docker/config.json"
sec --cert-dir "$certs" docker://$basic/ml/gpu:1.0 >/dev/null; rc=$?
[ "$rc" = 2 ] && tail -1 "$work/stderr.all" | grep >/dev/null 'credential helper' &&
  pass "credHelpers: named as out of scope" || { fail "credHelpers message"; tail -1 "$work/stderr.all"; }
rm "$HOME/.docker/config.json"
sec --creds "alice:$pass_basic" docker://$basic/ml/gpu:1.0 >/dev/null; rc=$?
[ "$rc" = 2 ] && tail -1 "$work/stderr.all" | grep >/dev/null 'TLS' && pass "unknown CA: TLS line, exit 2" ||
  { fail "unknown CA: exit $rc"; tail -1 "$work/stderr.all"; }
secp --tls-verify=false --creds "alice:$pass_basic" docker://$basic/ml/gpu:1.0 | findings |
  diff -q - "$work/gpu" >/dev/null && pass "--tls-verify=false over https" || fail "--tls-verify=false"
leak=0
for f in "$work"/b1.json "$work"/b2.json "$work/stderr.all"; do
  grep -q -- "$pass_basic" "$f" && { fail "the password is in $f"; leak=1; }
done
{ "$gpulint" --format sarif --cert-dir "$certs" --creds "alice:$pass_basic" docker://$basic/ml/gpu:1.0 \
  2>&1 || :; } | grep >/dev/null -- "$pass_basic" && { fail "the password is in the SARIF report"; leak=1; }
[ "$leak" = 0 ] && pass "no password in reports or stderr"

# ---- Bearer token flow ----
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=gpulint-token \
  -keyout "$tls/token.key" -out "$tls/token.crt" 2>/dev/null
pass_token='T0ken-Flow-Secret-42'
python3 "$here/tests/lib/token_service.py" "$work/token.port" "$tls/token.key" "$tls/token.crt" \
  gpulint-registry gpulint-issuer "bob:$pass_token" "$work/token.log" &
pids+=($!)
wait_file "$work/token.port" || { echo "FAIL: token service"; exit 1; }
tport=$(cat "$work/token.port")
start_registry token "$(printf 'auth:\n  token:\n    realm: http://127.0.0.1:%s/token\n    service: gpulint-registry\n    issuer: gpulint-issuer\n    rootcertbundle: %s' \
  "$tport" "$tls/token.crt")"
token=127.0.0.1:$port
sk copy --dest-tls-verify=false --dest-creds "bob:$pass_token" oci:"$img/oci":gpu \
  docker://$token/ml/gpu:1.0 || fail "push to the token registry"
: > "$work/token.log"
reg --creds "bob:$pass_token" docker://$token/ml/gpu:1.0 > "$work/t1.json"
findings < "$work/t1.json" | diff -q - "$work/gpu" >/dev/null && pass "Bearer token flow" ||
  { fail "Bearer token flow"; cat "$work/stderr"; }
grep -q 'scope=repository%3Aml%2Fgpu%3Apull' "$work/token.log" && pass "token scope: pull of the repository" ||
  { fail "token scope"; cat "$work/token.log"; }
reg docker://$token/ml/gpu:1.0 >/dev/null; rc=$?
[ "$rc" = 2 ] && grep -q '401' "$work/stderr" && pass "token flow without credentials: exit 2" ||
  fail "token flow without credentials: exit $rc"
grep -q -- "$pass_token" "$work/t1.json" "$work/stderr" && fail "the token password leaked"

# ---- faults ----
stub() { # MODE: start registry_stub.py; sets $stubport and $stublog
  rm -f "$work/stub.port"; stublog=$work/stub-$1.log; : > "$stublog"
  python3 "$here/tests/lib/registry_stub.py" "$1" "$work/stub.port" "$stublog" &
  pids+=($!); wait_file "$work/stub.port" || { echo "FAIL: stub $1"; exit 1; }
  stubport=$(cat "$work/stub.port")
}
stub stall
start=$(date +%s)
reg --timeout 1 docker://127.0.0.1:$stubport/x/img:1 >/dev/null; rc=$?
took=$(( $(date +%s) - start ))
[ "$rc" = 2 ] && [ "$took" -le 5 ] && grep -qi 'timed* *out' "$work/stderr" &&
  pass "stalled server: timeout, exit 2 in ${took}s" || { fail "stall: exit $rc after ${took}s"; cat "$work/stderr"; }
stub mismatch
regp docker://127.0.0.1:$stubport/x/img:1 | grep >/dev/null 'do not match the digest' &&
  pass "digest mismatch: GL900" || fail "digest mismatch"
stub busy
regp --driver 535 docker://127.0.0.1:$stubport/x/img:1 | findings | grep >/dev/null '^GL201' &&
  [ "$(grep -c . "$stublog")" -ge 5 ] && pass "429/503 retried, then read" || { fail "429 retry"; cat "$stublog"; }
stub big
regp docker://127.0.0.1:$stubport/x/img:1 | grep >/dev/null 'image-json-size' &&
  pass "manifest over 4 MiB: refused by the limit" || fail "big manifest"
stub redirect
regp --no-cache --creds u:RedirectSecret1 docker://127.0.0.1:$stubport/x/img:1 | findings | grep >/dev/null '^GL201' &&
  pass "redirected blob read" || { fail "redirect"; cat "$work/stderr" "$stublog"; }
grep -v "^$stubport " "$stublog" | grep >/dev/null 'auth=no' && ! grep -v "^$stubport " "$stublog" | grep >/dev/null 'auth=yes' &&
  pass "no Authorization header to the other host" || { fail "Authorization sent to the CDN"; cat "$stublog"; }

regp --layers --no-cache --creds u:RedirectSecret1 docker://127.0.0.1:$stubport/x/img:1 | findings |
  grep -q '^GL203 0 the image ships the NVIDIA driver' && pass "--layers: a redirected layer streamed" ||
  { fail "--layers redirect"; cat "$work/stderr" "$stublog"; }
grep -v "^$stubport " "$stublog" | grep >/dev/null "blob/sha256.* auth=yes" &&
  fail "--layers: Authorization sent to the CDN" || pass "--layers: no Authorization header to the CDN"
stub layer-mismatch
regp --layers --no-cache docker://127.0.0.1:$stubport/x/img:1 | grep >/dev/null 'its content has digest sha256:[0-9a-f]*, not sha256:' &&
  pass "--layers: a layer not matching its digest is GL900" || fail "--layers: layer digest mismatch"
stub layer-stall
start=$(date +%s)
regp --layers --no-cache --timeout 1 docker://127.0.0.1:$stubport/x/img:1 > "$work/stall.json"
took=$(( $(date +%s) - start ))
grep -q "the blob GET: nothing received" "$work/stall.json" && [ "$took" -le 5 ] &&
  pass "--layers: a stalled layer stream fails in ${took}s (GL900, not a hang)" ||
  { fail "--layers: stalled layer after ${took}s"; cat "$work/stall.json"; }

echo "registry: $fails failure(s)"
[ "$fails" = 0 ]
