# Folio: one image for the bot, the console and the CLI, in two variants.
#
#   docker build -t folio .                            CPU image (the last stage, "cpu"): embeddings and
#                                                      node-llama-cpp on the CPU
#   docker build --target cuda -t folio:cuda .          CUDA image: node-llama-cpp on an NVIDIA GPU
#                                                      (linux/amd64; run with --gpus all)
#
# Models are mounted at /models (FOLIO_MODELS_DIR) and never downloaded at start (FOLIO_OFFLINE=1);
# data lives in the /data volume (FOLIO_DATA_DIR). Everything the build fetches comes from the base
# images and the npm registry: onnxruntime-node's CUDA download from nuget.org and node-llama-cpp's
# source build are switched off, and the prebuilt binaries that ship as npm packages are used instead.
# docs/operations.md ("Deploy with Docker") walks through building and running both images.

# CUDA 12 runtime: node-llama-cpp 3.22's CUDA packages carry a CUDA 13 build and a CUDA 12 fallback, which
# it picks by itself; CUDA 12 runs on NVIDIA drivers from 525, CUDA 13 needs 580 or newer. With such a
# driver, --build-arg CUDA_IMAGE=nvidia/cuda:13.0.1-runtime-ubuntu24.04 uses the newer build.
ARG NODE_IMAGE=node:20.20.2-bookworm-slim
ARG CUDA_IMAGE=nvidia/cuda:12.9.1-runtime-ubuntu24.04

FROM ${NODE_IMAGE} AS node-runtime

# TypeScript -> dist/ (compiled JavaScript; the images never run tsx).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV ONNXRUNTIME_NODE_INSTALL=skip NODE_LLAMA_CPP_SKIP_DOWNLOAD=true
COPY package.json package-lock.json .npmrc ./
COPY scripts/trim-node-modules.mjs scripts/setup-llm.mjs ./scripts/
# The compiler needs type declarations only, not the packages' install scripts. node-llama-cpp is an
# opt-in of the default install (npm run setup:llm); the images carry it.
RUN npm ci --ignore-scripts && npm run setup:llm -- --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY adapters ./adapters
COPY ingestion ./ingestion
RUN npm run build

# Production dependencies only, then each variant's native binaries.
FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
# ONNXRUNTIME_NODE_INSTALL=skip: onnxruntime-node would otherwise fetch its CUDA provider from nuget.org
# (Folio runs ONNX models on the CPU). NODE_LLAMA_CPP_SKIP_DOWNLOAD: node-llama-cpp's postinstall would
# otherwise try to download and compile llama.cpp where no prebuilt binary fits; Folio starts it with
# build: "never".
ENV ONNXRUNTIME_NODE_INSTALL=skip NODE_LLAMA_CPP_SKIP_DOWNLOAD=true
COPY package.json package-lock.json .npmrc ./
COPY scripts/trim-node-modules.mjs scripts/setup-llm.mjs ./scripts/
RUN npm ci --omit=dev && npm run setup:llm -- --omit=dev && npm cache clean --force
COPY docker/prune-node-modules.sh docker/verify-node-modules.mjs ./docker/

FROM production-dependencies AS cuda-dependencies
RUN sh docker/prune-node-modules.sh cuda && node docker/verify-node-modules.mjs cuda

FROM production-dependencies AS cpu-dependencies
RUN sh docker/prune-node-modules.sh cpu && node docker/verify-node-modules.mjs cpu

# The CUDA image: NVIDIA's CUDA runtime (libcudart, cuBLAS) with the same Node.js binary as the CPU image.
FROM ${CUDA_IMAGE} AS cuda
COPY --from=node-runtime /usr/local/bin/node /usr/local/bin/node
# The same user (node, uid 1000) as the CPU image, so a /data volume moves between the two.
RUN (userdel --remove ubuntu 2>/dev/null || true) \
  && groupadd --gid 1000 node \
  && useradd --uid 1000 --gid node --create-home --shell /usr/sbin/nologin node
WORKDIR /app
# HOST: a container's loopback is its own, so the published port needs every interface (folio serve alone
# listens on loopback while only the local console is served).
ENV NODE_ENV=production FOLIO_DATA_DIR=/data FOLIO_MODELS_DIR=/models FOLIO_OFFLINE=1 PORT=3000 HOST=0.0.0.0
COPY --from=cuda-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY prompts ./prompts
COPY adapters/console ./adapters/console
RUN mkdir -p /data /models && chown node:node /data /models
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["serve"]

# The CPU image (default target): no CUDA or Vulkan binaries.
FROM ${NODE_IMAGE} AS cpu
WORKDIR /app
# HOST: a container's loopback is its own, so the published port needs every interface (folio serve alone
# listens on loopback while only the local console is served).
ENV NODE_ENV=production FOLIO_DATA_DIR=/data FOLIO_MODELS_DIR=/models FOLIO_OFFLINE=1 PORT=3000 HOST=0.0.0.0
COPY --from=cpu-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY prompts ./prompts
COPY adapters/console ./adapters/console
RUN mkdir -p /data /models && chown node:node /data /models
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["serve"]
