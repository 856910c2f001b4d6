#!/usr/bin/env bash
# GPU check of the model harnesses (docs/design.md §5), on one CUDA GPU, in under 8 minutes.
#
# Needs: a CUDA machine with `pip install -e ".[harness]"` (and `.[harness,vllm]` for the
# vLLM part). Nothing is downloaded: the model is a randomly initialised LLaVA-1.5-7B-sized
# VLM (6.8B parameters, bfloat16) built on the GPU by `rend-equiv tiny-model --shape 7b`.
#
# It builds a small release, runs the transformers backend over a fixed number of renderings
# (greedy, then K=8 samples at T=0.7 with log-probabilities on a few), prints renderings/second
# and peak GPU memory, checks the predictions cover every rendering once, and runs the vLLM
# path the same way when vLLM is importable.
#
#   bash scripts/gpu_check.sh [WORK_DIR]        (default: a fresh temporary folder)
#   N=64 BATCH=16 bash scripts/gpu_check.sh     (renderings, batch size)
set -euo pipefail

N="${N:-64}"
BATCH="${BATCH:-16}"
WORK="${1:-$(mktemp -d -t rend-equiv-gpu-XXXXXX)}"
PY="${PYTHON:-python}"
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
SECONDS=0
mkdir -p "$WORK"
log() { printf '[gpu_check %4ss] %s\n' "$SECONDS" "$*"; }

"$PY" - <<'PY'
import sys
import torch
if not torch.cuda.is_available():
    sys.exit("gpu_check: no CUDA device visible to torch")
print(f"torch {torch.__version__}, {torch.cuda.get_device_name(0)}, "
      f"{torch.cuda.get_device_properties(0).total_memory / 2**30:.0f} GiB")
PY

log "building a small release (2 instances per family, 2 re-renderings)"
"$PY" -m rend_equiv_dataset build --seeds 0 --per-family 2 --rerenders 2 --matched-cycle 0 \
    --out "$WORK/release" --overwrite --no-progress

log "building a random LLaVA-1.5-7B-sized model on the GPU"
rm -rf "$WORK/model-7b"
"$PY" -m rend_equiv_dataset tiny-model --shape 7b --device cuda --out "$WORK/model-7b"

check_cover() {  # every render_id of the first N renderings exactly once
    "$PY" - "$WORK/release" "$1" "$2" <<'PY'
import json, sys
from rend_equiv_dataset.harness.renderings import load_renderings
release, preds, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
want = sorted(load_renderings(release)["render_id"][:n])
lines = [json.loads(line) for line in open(preds)]
got = [r["render_id"] for r in lines[1:]]
assert "meta" in lines[0], "no meta line"
assert got == want, f"{len(got)} records for {len(want)} renderings"
print(f"coverage ok: {len(got)} renderings, each once")
PY
}

log "transformers backend: greedy over $N renderings (batch $BATCH)"
rm -rf "$WORK/tf.jsonl" "$WORK/tf.jsonl.parts"
"$PY" -m rend_equiv_dataset run --data "$WORK/release" --model "$WORK/model-7b" --backend transformers \
    --limit "$N" --batch-size "$BATCH" --max-new-tokens 16 --out "$WORK/tf.jsonl"
check_cover "$WORK/tf.jsonl" "$N"

log "transformers backend: K=8 samples at T=0.7 with log-probabilities over 8 renderings"
rm -rf "$WORK/tf-k8.jsonl" "$WORK/tf-k8.jsonl.parts"
"$PY" -m rend_equiv_dataset run --data "$WORK/release" --model "$WORK/model-7b" --backend transformers \
    --limit 8 --batch-size 8 --max-new-tokens 16 --samples 8 --temperature 0.7 --logprobs --out "$WORK/tf-k8.jsonl"
"$PY" - "$WORK/tf-k8.jsonl" <<'PY'
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])][1:]
assert all(len(r["samples"]) == 8 and isinstance(r["logprob"], float) for r in records), "samples/logprobs missing"
print(f"samples and logprobs ok on {len(records)} renderings")
PY
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv,noheader || true

if "$PY" -c "import vllm" 2>/dev/null; then
    log "vLLM backend: greedy + K=8 samples at T=0.7 + log-probabilities over $N renderings (one engine start)"
    rm -rf "$WORK/vllm.jsonl" "$WORK/vllm.jsonl.parts"
    "$PY" -m rend_equiv_dataset run --data "$WORK/release" --model "$WORK/model-7b" --backend vllm \
        --limit "$N" --batch-size "$N" --max-new-tokens 16 --samples 8 --temperature 0.7 --logprobs \
        --out "$WORK/vllm.jsonl"
    check_cover "$WORK/vllm.jsonl" "$N"
else
    log "vLLM is not importable here: skipping the vLLM path (pip install -e \".[harness,vllm]\")"
fi

log "done in ${SECONDS}s (limit: 480 s); outputs in $WORK"
if [ "$SECONDS" -gt 480 ]; then
    echo "gpu_check: took ${SECONDS}s, over the 8-minute budget" >&2
    exit 1
fi
