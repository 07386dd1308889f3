#!/bin/sh
# Removes from a production node_modules the native binaries an image never loads, so that each image
# carries only its own backend. Run by the Dockerfile after `npm ci --omit=dev`; safe to run by hand on a
# copy of node_modules to see what an image keeps.
#
#   sh docker/prune-node-modules.sh cpu|cuda [node_modules directory]
#
# cpu:  node-llama-cpp's CPU build for this architecture only (no CUDA, Vulkan or other-arch packages).
# cuda: node-llama-cpp's CPU build plus its CUDA builds (linux x64 only: there is no prebuilt CUDA build
#       for other architectures).
# Both: onnxruntime-node's runtime for this platform only (the package ships Windows, macOS and both Linux
# architectures), and no onnxruntime-web: the Node build of @huggingface/transformers loads
# onnxruntime-node and bundles the little it uses of the web runtime.
set -eu

variant="${1:-}"
modules="${2:-node_modules}"

case "$variant" in
  cpu | cuda) ;;
  *)
    echo "usage: prune-node-modules.sh cpu|cuda [node_modules directory]" >&2
    exit 2
    ;;
esac
if [ ! -d "$modules/node-llama-cpp" ] || [ ! -d "$modules/onnxruntime-node" ]; then
  echo "prune-node-modules.sh: $modules does not hold node-llama-cpp and onnxruntime-node; run npm ci first" >&2
  exit 1
fi

platform="$(node -p process.platform)"
arch="$(node -p process.arch)"
case "$platform/$arch" in
  linux/x64) llama_cpu="linux-x64" ;;
  linux/arm64) llama_cpu="linux-arm64" ;;
  linux/arm) llama_cpu="linux-armv7l" ;;
  *)
    echo "prune-node-modules.sh: no node-llama-cpp build is known for $platform/$arch" >&2
    exit 1
    ;;
esac

keep="$llama_cpu"
if [ "$variant" = cuda ]; then
  if [ "$platform/$arch" != linux/x64 ]; then
    echo "prune-node-modules.sh: the CUDA image is linux/amd64 only (node-llama-cpp has no CUDA build for $arch)" >&2
    exit 1
  fi
  keep="$keep linux-x64-cuda linux-x64-cuda-ext"
fi

for package in "$modules"/@node-llama-cpp/*; do
  [ -e "$package" ] || continue
  name="$(basename "$package")"
  case " $keep " in
    *" $name "*) echo "keep    @node-llama-cpp/$name" ;;
    *)
      echo "remove  @node-llama-cpp/$name"
      rm -rf "$package"
      ;;
  esac
done

for runtime in "$modules"/onnxruntime-node/bin/napi-v*/*/*; do
  [ -e "$runtime" ] || continue
  case "$runtime" in
    */"$platform/$arch") echo "keep    onnxruntime-node ${runtime#"$modules"/onnxruntime-node/}" ;;
    *)
      echo "remove  onnxruntime-node ${runtime#"$modules"/onnxruntime-node/}"
      rm -rf "$runtime"
      ;;
  esac
done

# The platform folders (darwin, win32) left empty.
find "$modules/onnxruntime-node/bin" -mindepth 2 -maxdepth 2 -type d -empty -exec rmdir {} +

if [ -d "$modules/onnxruntime-web" ]; then
  echo "remove  onnxruntime-web"
  rm -rf "$modules/onnxruntime-web"
fi
