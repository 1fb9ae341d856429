# syntax=docker/dockerfile:1
# acctsync watch as a container: see docs/watch.md for the docker run line.
#
# Node 26 is the Active LTS line since October 2026 (the package supports >= 20.19). The version is
# pinned, and this line is the one place it is written: .ci/run reads it and runs the test suite on
# this exact Node too. Bump it here (x.y.z, a version the npm registry's `node` package has) and CI
# follows. Slim images: no compiler, no curl.
ARG NODE_VERSION=26.10.0

# --- build: full dev dependencies, TypeScript compiled to dist/ ---------------------------------
FROM node:${NODE_VERSION}-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `prepare` would run the build before the sources are copied: install first, build explicitly.
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# --- runtime: production dependencies and the compiled output only ------------------------------
FROM node:${NODE_VERSION}-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` runs tsc, which is a dev dependency and not installed here.
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY schemas ./schemas
# The package's bin, on PATH, as `npm install -g` would link it.
RUN chmod 0755 dist/cli/main.js && ln -s /app/dist/cli/main.js /usr/local/bin/acctsync

# The official image's unprivileged user (uid 1000). The config is only read: mount it read-only.
USER node
WORKDIR /home/node
# The config tree (YAML files and the files they reference) is mounted here.
VOLUME ["/config"]
EXPOSE 9464
# Liveness of the process through its own endpoint, with node's fetch (there is no curl).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9464/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["acctsync"]
CMD ["watch", "/config", "--listen", "0.0.0.0:9464"]
