# One image for every Slipway process; the command picks the package (see docker-compose.yml).
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/common/package.json packages/common/
COPY packages/orchestrator/package.json packages/orchestrator/
COPY packages/bootstrap/package.json packages/bootstrap/
COPY packages/stub-store/package.json packages/stub-store/
COPY packages/stub-engine/package.json packages/stub-engine/
COPY packages/stub-site/package.json packages/stub-site/
COPY packages/stack/package.json packages/stack/
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-slim
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY packages ./packages
COPY examples ./examples
RUN mkdir -p /data && chown node:node /data
USER node
# Node keeps type-stripped, compiled modules here: a restarted container skips the TypeScript stripper
ENV NODE_COMPILE_CACHE=/tmp/node-compile-cache NODE_OPTIONS=--max-semi-space-size=4
VOLUME /data
# overridden per service in docker-compose.yml
CMD ["node", "packages/orchestrator/src/server.ts"]
