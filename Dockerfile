# One image for every service (the command picks the entry point): Node 22 LTS slim, non-root,
# TypeScript run through tsx as `make run` does, /healthz's version stamped at build.
#   docker build --build-arg BUILD_VERSION="$(git describe --tags --always).$(git rev-parse --short HEAD).$(date +%s)" .

# Production dependencies of every workspace. Only the package.json files are copied first, so
# this layer is rebuilt when dependencies change, not on every source edit.
FROM node:22-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY libs libs
COPY services services
RUN find libs services -type f ! -name package.json -delete \
 && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error \
 && npm cache clean --force
# the one native addon built here: pkcs11js, for KEY_PROVIDER=pkcs11 (an HSM's PKCS#11 library)
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
 && npm rebuild pkcs11js \
 && rm -rf /var/lib/apt/lists/*

# tsx (and its esbuild) is a root devDependency; the runtime needs it, the rest of the dev tools not.
FROM node:22-slim AS tsx
WORKDIR /opt/tsx
COPY package-lock.json /tmp/lock.json
RUN version="$(node -p "require('/tmp/lock.json').packages['node_modules/tsx'].version")" \
 && npm install --no-audit --no-fund --loglevel=error --no-package-lock "tsx@${version}" \
 && npm cache clean --force

# The capture page (Preact, built by Vite): only its dist/ goes into the image.
FROM node:22-slim AS page
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY contracts/package.json contracts/
# the one module of contracts the page takes values from (the session states; no schema library)
COPY contracts/http/sessionStates.ts contracts/http/
COPY libs libs
COPY services services
RUN find libs services -type f ! -name package.json ! -path 'services/capture-page/*' -delete \
 && npm ci -w services/capture-page --include-workspace-root=false --ignore-scripts --no-audit --no-fund --loglevel=error \
 && npm run build -w services/capture-page

# The operator console's web app (React, built by Vite) the same way: only its dist/ goes into the
# image, so React, Vite and the TanStack libraries (devDependencies) stay out of it.
FROM node:22-slim AS console-web
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY contracts/package.json contracts/
# the modules of contracts the web app takes values from (session and review case states; no
# schema library)
COPY contracts/http/sessionStates.ts contracts/http/reviewCaseStates.ts contracts/http/
COPY libs libs
COPY services services
RUN find libs services -type f ! -name package.json ! -path 'services/console/*' -delete \
 && npm ci -w services/console --include-workspace-root=false --ignore-scripts --no-audit --no-fund --loglevel=error \
 && npm run build -w services/console

FROM node:22-slim AS runtime
ARG BUILD_VERSION=unknown.0
LABEL org.opencontainers.image.title="idv-platform" \
      org.opencontainers.image.version="${BUILD_VERSION}"
ENV NODE_ENV=production \
    BUILD_VERSION=${BUILD_VERSION} \
    MASTER_KEY_FILE=/tmp/master.key
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules node_modules
COPY --from=tsx --chown=root:root /opt/tsx/node_modules node_modules
COPY --chown=root:root . .
COPY --from=page --chown=root:root /app/services/capture-page/dist services/capture-page/dist
COPY --from=console-web --chown=root:root /app/services/console/dist services/console/dist
# SoftHSM2, the PKCS#11 token compose runs with KEY_PROVIDER=pkcs11 (a real HSM's module instead
# in production); its token directory is a volume the `node` user writes
RUN apt-get update && apt-get install -y --no-install-recommends softhsm2 \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/softhsm/tokens /var/lib/idv/master-keys \
 && chown node /var/lib/softhsm/tokens /var/lib/idv/master-keys
# the code is root's and read-only to the process; it runs as the unprivileged `node` user
USER node
EXPOSE 8080 8081 8082 8083 8084 8090 9100
CMD ["node", "--import", "tsx", "services/docverify-gateway/src/main.ts"]
