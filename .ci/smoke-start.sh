#!/usr/bin/env bash
# Starts the service the way the README says, on an empty data directory, and checks that
# the first-start token it prints works with the curl line it prints.
# .ci/smoke-start.sh [directory]   the service's directory (default: this repository)
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
data_dir=$(mktemp -d)
log="$data_dir/server.log"
port=$(( 20000 + RANDOM % 20000 ))
DATA_DIR="$data_dir" PORT="$port" LOG_LEVEL=warn npm start >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$data_dir"' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  sleep 0.5
done
curl -sf "http://127.0.0.1:$port/ready" >/dev/null
# the first account is made once the port is taken: its lines follow the first answers closely
for _ in $(seq 1 20); do grep -q 'curl -H' "$log" && break; sleep 0.25; done
curl_line=$(grep -m1 'curl -H' "$log" | sed 's/^ *//')
[ -n "$curl_line" ] || { echo "no curl line printed on first start"; cat "$log"; exit 1; }
answer=$(eval "$curl_line -sf")
echo "$answer" | grep -q '"11"' || { echo "first-start token did not work: $answer"; exit 1; }
curl -sf "http://127.0.0.1:$port/openapi.json" | grep -q '"openapi"'
# an order, written by the SQLite writer thread (platform/db/sqlite-writer.ts, which loads json-pieces from the built
# output), read back whole
token=$(echo "$curl_line" | grep -o 'Bearer [A-Za-z0-9_-]*')
order='{"recipient":{"fullName":"Анна Смирнова","phone":"+79215556677"},"sender":{"fullName":"Склад","phone":"+79215556678"},"senderAddress":{"city":{"name":"Москва","countryCode":"RU"},"street":"Тверская","house":"2"},"pickup":{"type":1},"deliveryAddress":{"city":{"name":"Москва","countryCode":"RU"},"street":"Тверская","house":"1"},"products":[{"name":"Книга","priceDeclared":100,"count":1,"weight":0.5}],"delivery":{"type":2,"company":{"id":1}}}'
created=$(curl -sf -H "Authorization: $token" -H 'content-type: application/json' -d "$order" "http://127.0.0.1:$port/v2/orders") || { echo "POST /v2/orders failed"; cat "$log"; exit 1; }
order_id=$(echo "$created" | grep -o '"id":[0-9]*' | cut -d: -f2)
curl -sf -H "Authorization: $token" "http://127.0.0.1:$port/v2/orders/$order_id" | grep -q 'Анна Смирнова' || { echo "the new order does not read back"; exit 1; }
# the checkout widget was built with the rest (dist/widget): present even with production dependencies only
curl -sf "http://127.0.0.1:$port/widget/v1/widget.js" | grep -q 'DeliveryWidget' || { echo "the checkout widget is not served"; exit 1; }
# the merchant dashboard too (dist/app), under its strict CSP, its script served
app_headers=$(curl -sf -D - -o "$data_dir/app.html" "http://127.0.0.1:$port/app/")
echo "$app_headers" | grep -qi "content-security-policy: default-src 'self'" || { echo "the dashboard is not served with its CSP"; exit 1; }
app_script=$(grep -o '/app/assets/[^"]*\.js' "$data_dir/app.html" | head -1)
[ -n "$app_script" ] && curl -sf "http://127.0.0.1:$port$app_script" >/dev/null || { echo "the dashboard's script is not served"; exit 1; }
# SIGTERM drains and exits cleanly
kill -TERM $server
wait $server || { echo "server did not exit cleanly on SIGTERM"; cat "$log"; exit 1; }
trap 'rm -rf "$data_dir"' EXIT
echo "npm start: first-start token works, an order is created and read back, /health, /ready, /openapi.json, /widget/v1/widget.js and /app/ answer, SIGTERM exits 0"
