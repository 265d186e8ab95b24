# The receiver and the worker (one image, two commands: see docker-compose.yml).
# Node 24 (.nvmrc's major, what the tests run on), an LTS line supported until 2028-04-30, on Debian 13
# (trixie, the current stable); dependencies exactly as locked (`npm ci`).
FROM node:24-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-trixie-slim
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
ENV NODE_ENV=production DATA_DIR=/data LOG_FORMAT=json
# The data folder (generated secrets when ADMIN_TOKEN / SECRETS_KEY are not set) belongs to the
# user the processes run as: `node` could not create /data itself.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
# The receiver's HTTP port and its metrics port, and the worker's metrics port.
EXPOSE 3000 9463 9464
