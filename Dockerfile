# One image for every service; the command picks the entry point. Node 22 LTS slim, non-root.
FROM node:22-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY libs libs
COPY services services
RUN find libs services -type f ! -name package.json -delete && npm ci --no-audit --no-fund --loglevel=error

FROM node:22-slim
ARG BUILD_VERSION=unknown.0
ENV NODE_ENV=production BUILD_VERSION=${BUILD_VERSION}
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY . .
USER node
CMD ["node", "--import", "tsx", "services/docverify-gateway/src/main.ts"]
