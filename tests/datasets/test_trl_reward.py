"""synth.integrations.trl: the GRPOTrainer-shaped reward function on exported rows -- string and
conversational completions, both ground-truth column shapes, scores equal to the bootcamp's own
verify_score (imported here only as the oracle), a raising verifier counted and scored 0."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from synth.integrations.trl import bootcamp_reward_func, completion_text
from synth.library import Library
from synth.training import reward
from synth.training.datasets import BootcampDataset
from synth.training.reward import RewardDataError


def _rows(name: str, n: int) -> list[dict]:
    ds = BootcampDataset(name, size=n, seed=2, backend="process")
    return [{"data_source": f"bootcamp/{name}",
             "prompt": [{"role": "user", "content": e["question"]}],
             "reward_model": {"style": "rule",
                              "ground_truth": json.dumps(e["metadata"]["identity"], sort_keys=True)},
             "answer": e["answer"], "identity": e["metadata"]["identity"]} for e in ds]


def test_rewards_are_the_bootcamps_scores_for_string_and_chat_completions():
    rows = _rows("game24", 8) + _rows("cipher", 8)
    lib = Library()
    completions, want = [], []
    for i, row in enumerate(rows):
        cls = lib.load_bootcamp(row["data_source"].split("/", 1)[1])
        text = cls.wrap_answer(row["answer"]) if i % 3 else "no idea"
        want.append(cls.verify_score(text, row["identity"]))
        completions.append(text if i % 2 else [{"role": "assistant", "content": text}])
    func = bootcamp_reward_func(backend="process")
    try:
        got = func(prompts=[r["prompt"] for r in rows], completions=completions,
                   data_source=[r["data_source"] for r in rows],
                   reward_model=[r["reward_model"] for r in rows])
        flat = func(prompts=None, completions=completions,
                    data_source=[r["data_source"] for r in rows],
                    ground_truth=[r["reward_model"]["ground_truth"] for r in rows])
    finally:
        func.close()
    assert got == want == flat
    assert 0 < sum(got) < len(got)  # right and wrong answers both present
    assert func.__name__ == "bootcamp_reward"


def test_completion_text_shapes():
    assert completion_text("x") == "x"
    assert completion_text([{"role": "assistant", "content": "a"}]) == "a"
    assert completion_text([{"role": "user", "content": "q"}, {"role": "assistant", "content": "b"}]) == "b"
    assert completion_text({"content": "c"}) == "c"
    assert completion_text(None) is None and completion_text([{"role": "assistant"}]) is None


def test_missing_columns_are_named():
    func = bootcamp_reward_func(backend="process")
    with pytest.raises(RewardDataError, match="data_source"):
        func(prompts=["p"], completions=["c"])
    with pytest.raises(RewardDataError, match="ground_truth nor a reward_model"):
        func(prompts=["p"], completions=["c"], data_source=["bootcamp/game24"])
    func.close()


RAISES = '''"""A bootcamp whose verifier raises on one kind of answer (test fixture of synth)."""
from synth.bootcamp import BaseBootcamp


class RaisesBootcamp(BaseBootcamp):
    LEVELS = {"easy": {}, "medium": {}, "hard": {}}

    def case_generator(self):
        return {"n": self.rng.randint(1, 1000)}

    def prompt_func(self, identity):
        return f"Say {identity['n']}. Put it in <answer></answer> tags."

    @staticmethod
    def reference_answer(identity):
        return str(identity["n"])

    @classmethod
    def _verify_correction(cls, answer, identity):
        if answer == "boom":
            raise RuntimeError("the verifier exploded")
        return answer.strip() == str(identity["n"])
'''


def test_a_raising_verifier_is_counted_logged_and_scores_zero(tmp_path: Path, caplog):
    lib = Library(tmp_path / "lib")
    lib.commit(name="raises", code=RAISES, class_name="RaisesBootcamp", source="tests",
               task_id="tests/raises", origin="handwritten")
    func = bootcamp_reward_func(tmp_path / "lib", backend="process")
    before = reward.FINDINGS["raises"]
    try:
        got = func(prompts=None, completions=["<answer>boom</answer>", "<answer>7</answer>"],
                   data_source=["bootcamp/raises"] * 2, ground_truth=['{"n": 7}'] * 2)
    finally:
        func.close()
    assert got == [0.0, 1.0]
    assert reward.FINDINGS["raises"] == before + 1
    assert "the verifier exploded" in caplog.text and "boom" in caplog.text
