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
# Not -march=native: on a CPU with AMX (Intel Sapphire Rapids, the CI machines' kind) a native
# build takes ggml's AMX matrix path, which crashes (SIGSEGV in ggml_backend_amx_mul_mat) on the
# first decode of either embedded model. AVX2/FMA/F16C, which every x86-64 CPU here has.
CPU_FLAGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
case "$(uname -m)" in x86_64) ;; *) CPU_FLAGS="-DGGML_NATIVE=ON" ;; esac
STAMP_TEXT="$VERSION $CPU_FLAGS"
if [ -x "$BIN" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$STAMP_TEXT" ]; then
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
    -DLLAMA_BUILD_SERVER=ON $CPU_FLAGS >"$work/cmake.log" 2>&1 || { tail -30 "$work/cmake.log" >&2; exit 2; }
cmake --build "$work/build" --target llama-server -j"$(nproc)" >"$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log" >&2; exit 2; }
install -m 0755 "$work/build/bin/llama-server" "$BIN"
mkdir -p "$(dirname "$STAMP")"
echo "$STAMP_TEXT" >"$STAMP"
echo "setup: $("$BIN" --version 2>&1 | grep -m1 version || echo llama-server) installed as $BIN"
