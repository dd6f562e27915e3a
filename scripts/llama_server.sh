#!/usr/bin/env bash
# Build llama.cpp's llama-server for the embedded models and install it as .venv/bin/llama-server.
# The sources are the llama.cpp tree vendored in the llama-cpp-python source package, taken from
# the package registry by name and version. Static build (one binary, no shared libraries), no
# network features. Idempotent: a binary stamped with this version is kept. About 10 minutes on
# 2 cores the first time.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION="${LLAMA_CPP_PYTHON_VERSION:-0.3.36}"
BIN=.venv/bin/llama-server
STAMP=.venv/share/llama-server.version
if [ -x "$BIN" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$VERSION" ]; then
    exit 0
fi
command -v cmake >/dev/null || { echo "error: llama-server needs cmake (apt-get install cmake)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "setup: building llama-server from llama-cpp-python $VERSION's llama.cpp sources (minutes, once)"
.venv/bin/python -m pip download --quiet --no-deps --no-binary :all: -d "$work" \
    "llama-cpp-python==$VERSION" 2>&1 | grep -v "is ignored" || true
tar -xzf "$work"/llama_cpp_python-"$VERSION".tar.gz -C "$work"
src="$work/llama_cpp_python-$VERSION/vendor/llama.cpp"
[ -f "$src/tools/server/server.cpp" ] || { echo "error: no llama.cpp server sources in $src" >&2; exit 2; }
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_BUILD_SERVER=ON >"$work/cmake.log" 2>&1 || { tail -30 "$work/cmake.log" >&2; exit 2; }
cmake --build "$work/build" --target llama-server -j"$(nproc)" >"$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log" >&2; exit 2; }
install -m 0755 "$work/build/bin/llama-server" "$BIN"
mkdir -p "$(dirname "$STAMP")"
echo "$VERSION" >"$STAMP"
echo "setup: $("$BIN" --version 2>&1 | grep -m1 version || echo llama-server) installed as $BIN"
