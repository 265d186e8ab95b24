# The receiver and the worker (one image, two commands: see docker-compose.yml).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev
ENV NODE_ENV=production DATA_DIR=/data LOG_FORMAT=json
# The data folder (generated secrets when ADMIN_TOKEN / SECRETS_KEY are not set) belongs to the
# user the processes run as: `node` could not create /data itself.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
# The receiver's HTTP port, and the worker's metrics port.
EXPOSE 3000 9464
