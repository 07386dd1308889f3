# Folio: one image for the bot, the console and the CLI.
# Models are mounted at /models (FOLIO_MODELS_DIR); data lives in the /data volume (FOLIO_DATA_DIR).
FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY ingestion ./ingestion
COPY adapters ./adapters
COPY prompts ./prompts
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production FOLIO_DATA_DIR=/data FOLIO_MODELS_DIR=/models PORT=3000
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/package.json ./package.json
COPY adapters/console ./adapters/console
COPY prompts ./prompts
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["serve"]
