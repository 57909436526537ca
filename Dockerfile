# syntax=docker/dockerfile:1
# The service in a small image: built with the dev dependencies, run with the production ones
# only, as the unprivileged `node` user, on a /data volume.
#   docker build -t delivery-service .
#   docker run -p 8080:8080 -v delivery-data:/data delivery-service     # SQLite under /data
# compose.yaml runs it with PostgreSQL.

ARG NODE_IMAGE=node:24-slim

# No native module (SQLite is Node's built-in node:sqlite), so no toolchain in any stage.
FROM ${NODE_IMAGE} AS install
WORKDIR /app
# (not .npmrc: its silent log level would hide why an install failed)
COPY package.json package-lock.json ./
# the install's first step (preinstall) checks the Node.js line
COPY scripts/check-node.mjs ./scripts/

FROM install AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY widget ./widget
COPY app ./app
COPY clients ./clients
RUN npm run build

FROM install AS prod-deps
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
# jemalloc: the service runs on it when present and gives memory back after a load (src/platform/allocator.ts)
RUN apt-get update && apt-get install -y --no-install-recommends libjemalloc2 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
# package.json and data/ mark the project root the service finds its reference data in.
COPY package.json ./
COPY data ./data
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# A named volume mounted here starts with this owner, so `node` can write the database and files.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# /ready: the process serves and its database answers. fetch is built into Node.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# What `npm start` runs after its build step (the image is built already; npm would only add a process).
# the V8 flags and glibc malloc's settings of `npm start` (package.json; why: docs/decisions/platform.md, "Memory"),
# which apply only with ALLOCATOR=system: the service preloads the jemalloc installed above
ENV MALLOC_ARENA_MAX=2
ENV MALLOC_MMAP_THRESHOLD_=65536
CMD ["node", "--max-semi-space-size=8", "--external-memory-accounted-in-global-limit", "dist/src/main.js", "serve"]
