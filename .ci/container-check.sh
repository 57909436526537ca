#!/usr/bin/env bash
# Builds the image, runs it on a fresh volume and waits for /ready (the database answers),
# then checks /version inside it. Needs a Docker engine; .ci/run calls it only when one answers.
set -euo pipefail
cd "$(dirname "$0")/.."
tag="delivery-service:ci-$$"
name="delivery-ci-$$"
port=$(( 20000 + RANDOM % 20000 ))
cleanup() {
  docker rm -f "$name" >/dev/null 2>&1 || true
  docker volume rm "$name-data" >/dev/null 2>&1 || true
  docker image rm "$tag" >/dev/null 2>&1 || true
}
trap cleanup EXIT
docker build --quiet -t "$tag" . >/dev/null
docker run -d --name "$name" -p "127.0.0.1:$port:8080" -v "$name-data:/data" -e LOG_LEVEL=warn "$tag" >/dev/null
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$port/ready" >/dev/null 2>&1 && break
  sleep 1
done
curl -sf "http://127.0.0.1:$port/ready" >/dev/null || { echo "the container never became ready"; docker logs "$name"; exit 1; }
curl -sf "http://127.0.0.1:$port/version" | grep -q '"database":"sqlite"' || { echo "/version in the container did not answer"; exit 1; }
[ "$(docker exec "$name" id -un)" = node ] || { echo "the container does not run as the node user"; exit 1; }
echo "container image: built, runs as node, /ready and /version answer"
