# One image for every Slipway process; the command picks the package (see docker-compose.yml).
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/common/package.json packages/common/
COPY packages/airflow-contract/package.json packages/airflow-contract/
COPY packages/orchestrator/package.json packages/orchestrator/
COPY packages/bootstrap/package.json packages/bootstrap/
COPY packages/stub-store/package.json packages/stub-store/
COPY packages/stub-engine/package.json packages/stub-engine/
COPY packages/stub-site/package.json packages/stub-site/
COPY packages/stack/package.json packages/stack/
# no lifecycle scripts: the root's `prepare` warms a compile cache from sources this stage does not have, and the
# only dependency with an install script (`node`, the Node of `npm start`) is a devDependency; the image has its own
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:24-slim
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
# everything the install made: the root node_modules and each packages/*/node_modules the lockfile puts there
COPY --from=deps /app ./
COPY packages ./packages
COPY examples ./examples
RUN mkdir -p /data && chown node:node /data
USER node
# Node keeps type-stripped, compiled modules here: a restarted container skips the TypeScript stripper. Each
# command adds --optimize-for-size itself (Node refuses it in NODE_OPTIONS): memory that follows what a process holds
# under steady traffic, as npm start runs them (packages/stack/src/environment.ts)
ENV NODE_COMPILE_CACHE=/tmp/node-compile-cache NODE_OPTIONS=--max-semi-space-size=4
# glibc's malloc maps every block of 128 KiB or more on its own and gives it back when freed, rather than keeping it
# in its heap after a burst of work (as npm start runs them: MALLOC_TUNABLES in packages/stack/src/environment.ts)
ENV GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072
VOLUME /data
# overridden per service in docker-compose.yml
CMD ["node", "--optimize-for-size", "packages/orchestrator/src/server.ts"]
