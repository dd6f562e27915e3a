"""reasoning-gym-style datasets over the library: ``dataset[i] -> {question, answer, metadata}``.

    from synth.training.datasets import BootcampDataset, CompositeDataset
    ds = BootcampDataset("game24", size=500, seed=0, level="easy")
    entry = ds[17]                      # {"question": prompt, "answer": reference answer, "metadata": {...}}
    ds.score_answer("8/(3-8/3)", entry) # the bootcamp's verify_score of that answer, in [0, 1]
    mix = CompositeDataset({"game24": 2.0, "sudoku": 1.0}, size=300, seed=1)

Every item is drawn by the bootcamp's own code in a sandboxed method server (the same server and
the same per-index seed derivation as ``synth export``: :func:`synth.sandbox.kit.derive_seed` of
(seed, bootcamp, ``"dataset"``, index)), so ``dataset[i]`` is the same in any process and with any
hash seed; nothing of the library is imported into this process. The items are drawn once, when
the dataset is made (``size`` is known), and kept. ``score_answer`` wraps the answer in the
bootcamp's answer format (its ``wrap_answer``) and scores it with ``verify_score`` in the
sandbox's warm worker pool (:class:`synth.training.reward.RewardFunction`); an answer that is not a
string scores 0.0.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from synth.library import Library
from synth.sandbox.kit import derive_seed
from synth.serving.sampling import DEFAULT_LEVEL, CaseSampler, SampleError
from synth.training.curriculum import LevelDifficulty, curriculum_fields, level_difficulty

__all__ = ["BootcampDataset", "CompositeDataset", "CurriculumDataset", "DatasetError"]

SPLIT = "dataset"  # the split word of the per-index seed (export uses "train" / "test")
BATCH = 64


class DatasetError(RuntimeError):
    """A bootcamp could not give the dataset's items (with what the sandbox said)."""


class BootcampDataset(Sequence[dict[str, Any]]):
    """``size`` items of one library bootcamp, seeded per index (see the module docstring).

    ``level``: one preset name for every item, or None for the bootcamp's levels in turn
    (item ``i`` gets level ``i % len(levels)``). ``library``: a library folder (default: the
    shipped one). ``backend``: the sandbox backend that draws and scores."""

    def __init__(self, name: str, size: int = 100, seed: int = 0, level: str | None = None, *,
                 library: Path | str | None = None, backend: str = "auto") -> None:
        if size < 0:
            raise ValueError("size must be >= 0")
        self.name, self.size, self.seed, self.level = name, size, seed, level
        self.library = Library(library) if library is not None else Library()
        self.backend = backend
        record, code = self.library.checked_code(name)
        self._code, self._class = code, record.class_name
        self._entries = self._draw(code, record.class_name)
        self._reward: Any = None
        self._wrapper: CaseSampler | None = None

    def _draw(self, code: str, class_name: str) -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = []
        try:
            with CaseSampler(code, backend=self.backend, class_name=class_name,
                             name=self.name, label="synth-dataset") as sampler:
                levels = [self.level] if self.level is not None else (
                    sampler.levels or [DEFAULT_LEVEL])
                for lvl in levels:
                    sampler.level_params(lvl)  # KeyError naming the known levels
                for start in range(0, self.size, BATCH):
                    idx = range(start, min(self.size, start + BATCH))
                    specs = [(levels[i % len(levels)], derive_seed(self.seed, self.name, SPLIT, i))
                             for i in idx]
                    for i, sample in zip(idx, sampler.sample(specs, answers=True), strict=True):
                        entries.append({
                            "question": sample.prompt,
                            "answer": sample.answer,
                            "metadata": {"bootcamp": self.name, "level": sample.level,
                                         "seed": sample.seed, "index": i,
                                         "identity": json.loads(sample.case_text)},
                        })
        except SampleError as exc:
            raise DatasetError(f"bootcamp {self.name!r}: {exc.message}") from None
        return entries

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, index: int) -> dict[str, Any]:  # type: ignore[override]
        if not isinstance(index, int):
            raise TypeError("a dataset is indexed by an int")
        entry = self._entries[index]
        return {**entry, "metadata": dict(entry["metadata"])}

    def score_answer(self, answer: Any, entry: Mapping[str, Any]) -> float:
        """The bootcamp's ``verify_score`` of ``answer`` (wrapped in its answer format) on the
        entry's case, scored in the sandbox's warm pool; 0.0 for an answer that is not a str."""
        if not isinstance(answer, str):
            return 0.0
        meta = entry["metadata"]
        if meta.get("bootcamp") != self.name:
            raise DatasetError(f"the entry is of bootcamp {meta.get('bootcamp')!r}, not {self.name!r}")
        if self._wrapper is None:
            self._wrapper = CaseSampler(self._code, backend=self.backend, class_name=self._class,
                                        name=self.name, label="synth-dataset").start()
        reply = self._wrapper.server.call("wrap", {"answer": answer})
        if not reply.ok or not isinstance(reply.value, str):
            raise DatasetError(f"bootcamp {self.name!r}: wrap_answer failed: {reply.error}")
        if self._reward is None:
            from synth.training.reward import RewardFunction

            self._reward = RewardFunction(self.library.root, backend=self.backend)
        return float(self._reward(f"bootcamp/{self.name}", reply.value, meta["identity"]))

    def close(self) -> None:
        """Stop the sandboxed servers that scoring started (also stopped at exit)."""
        if self._wrapper is not None:
            self._wrapper.close()
            self._wrapper = None
        if self._reward is not None:
            self._reward.close()
            self._reward = None


class CompositeDataset(Sequence[dict[str, Any]]):
    """``size`` items mixing bootcamps by ``weights`` ({name: weight > 0}): item ``i``'s
    bootcamp is drawn with a ``random.Random(seed)`` stream (the same mix in any process); each
    bootcamp's items come from a :class:`BootcampDataset` of its own with the same seed."""

    def __init__(self, weights: Mapping[str, float], size: int = 100, seed: int = 0,
                 level: str | None = None, *, library: Path | str | None = None,
                 backend: str = "auto") -> None:
        if not weights or any(w <= 0 for w in weights.values()):
            raise ValueError("weights must name at least one bootcamp, each with a weight > 0")
        names = sorted(weights)
        rng = random.Random(f"composite|{seed}")
        self._order = rng.choices(names, weights=[weights[n] for n in names], k=size)
        counts = {n: self._order.count(n) for n in names}
        self.datasets = {n: BootcampDataset(n, counts[n], seed, level, library=library,
                                            backend=backend) for n in names if counts[n]}
        self._at: list[tuple[str, int]] = []
        seen = dict.fromkeys(names, 0)
        for n in self._order:
            self._at.append((n, seen[n]))
            seen[n] += 1

    def __len__(self) -> int:
        return len(self._at)

    def __getitem__(self, index: int) -> dict[str, Any]:  # type: ignore[override]
        name, i = self._at[index]
        return self.datasets[name][i]

    def score_answer(self, answer: Any, entry: Mapping[str, Any]) -> float:
        return self.datasets[entry["metadata"]["bootcamp"]].score_answer(answer, entry)

    def close(self) -> None:
        for ds in self.datasets.values():
            ds.close()


class CurriculumDataset(Sequence[dict[str, Any]]):
    """Items of several bootcamps ordered from easy to hard: every item's level gets the
    :func:`~synth.training.curriculum.level_difficulty` of its bootcamp's record; items are sorted by
    (hardness, bootcamp, index), so the order is the same in any process. ``metadata`` gains
    ``curriculum`` (:func:`~synth.training.curriculum.curriculum_fields`: hardness, pass_rate,
    rate_samples -- the answers the rate rests on, few means the order means little --,
    stopped_early, basis); :attr:`levels` holds every level's estimate."""

    def __init__(self, names: Sequence[str], size_per_bootcamp: int = 100, seed: int = 0, *,
                 library: Path | str | None = None, backend: str = "auto") -> None:
        if not names:
            raise ValueError("name at least one bootcamp")
        self.datasets = {n: BootcampDataset(n, size_per_bootcamp, seed, library=library,
                                            backend=backend) for n in dict.fromkeys(names)}
        keyed: list[tuple[float, int, int, dict[str, Any]]] = []
        self.levels: list[LevelDifficulty] = []
        for pos, (name, ds) in enumerate(self.datasets.items()):
            record = ds.library.record(name)
            levels = record.levels or list(dict.fromkeys(e["metadata"]["level"] for e in ds))
            known = {lv: level_difficulty(record, lv, levels) for lv in levels}
            self.levels += known.values()
            for i in range(len(ds)):
                entry = ds[i]
                d = known.get(entry["metadata"]["level"]) or level_difficulty(
                    record, entry["metadata"]["level"], levels)
                entry["metadata"]["curriculum"] = curriculum_fields(d)
                keyed.append((d.hardness, pos, i, entry))
        keyed.sort(key=lambda k: (k[0], k[1], k[2]))
        self._entries = [k[3] for k in keyed]

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, index: int) -> dict[str, Any]:  # type: ignore[override]
        entry = self._entries[index]
        meta = entry["metadata"]
        return {**entry, "metadata": {**meta, "curriculum": dict(meta["curriculum"])}}

    def score_answer(self, answer: Any, entry: Mapping[str, Any]) -> float:
        return self.datasets[entry["metadata"]["bootcamp"]].score_answer(answer, entry)

    def close(self) -> None:
        for ds in self.datasets.values():
            ds.close()
