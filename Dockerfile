# The Heizplan server with the built web app, for compose.yaml (README "Production-like setup").
# The server runs from its TypeScript sources through tsx, as `npm start` does, so the image keeps
# the development dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY server/package.json server/
COPY web/package.json web/
RUN npm ci
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /app /app
# DATA_DIR (mail outbox without SMTP_URL) belongs to the user the server runs as.
RUN mkdir -p /app/data && chown node:node /app/data
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/app/data
EXPOSE 3000
USER node
CMD ["node", "--import", "tsx", "server/src/main.ts"]
