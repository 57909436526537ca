#!/usr/bin/env bash
# The published OpenAPI document passes Redocly's recommended rules with no errors
# (warnings are printed), and the generated TypeScript client is current and works.
set -euo pipefail
cd "$(dirname "$0")/.."

document="$(mktemp -d)/openapi.json"
npx tsx scripts/dump-openapi.ts "$document"
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx redocly lint "$document" --config redocly.yaml --format=stylish
# the drift check and the client's calls against the service on a loopback port
npx vitest run clients/typescript test/openapi.test.ts
