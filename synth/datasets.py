"""reasoning-gym-style datasets over the library: ``dataset[i] -> {question, answer, metadata}``.

    from synth.datasets import BootcampDataset, CompositeDataset
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
sandbox's warm worker pool (:class:`synth.reward.RewardFunction`); an answer that is not a
string scores 0.0.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from synth.library import Library
from synth.sampling import DEFAULT_LEVEL, CaseSampler, SampleError
from synth.sandbox.kit import derive_seed

__all__ = ["BootcampDataset", "CompositeDataset", "CurriculumDataset", "DatasetError", "difficulty"]

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
            from synth.reward import RewardFunction

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


def difficulty(record: Any, level: str, levels: Sequence[str]) -> tuple[float, int]:
    """How hard ``level`` of a library record is, for ordering: 1 - its measured pass rate when
    the record has one for that level (``level_pass_rates``, from the solver filter), else the
    level's position in the bootcamp's LEVELS (easy first) scaled into [0, 1]. The second value
    is how many solver answers the rate rests on (``samples`` of the record; 0 without a rate)."""
    rates = getattr(record, "level_pass_rates", None) or {}
    if level in rates:
        return 1.0 - float(rates[level]), int(getattr(record, "samples", 0) or 0)
    pos = list(levels).index(level) if level in levels else 0
    return (pos + 0.5) / max(1, len(levels)), 0


class CurriculumDataset(Sequence[dict[str, Any]]):
    """Items of several bootcamps ordered from easy to hard: every item's level gets the
    :func:`difficulty` of its bootcamp's record; items are sorted by (difficulty, bootcamp,
    index), so the order is the same in any process. ``metadata`` gains ``difficulty`` and
    ``rate_samples`` (the answers its pass rate rests on: few means the order means little)."""

    def __init__(self, names: Sequence[str], size_per_bootcamp: int = 100, seed: int = 0, *,
                 library: Path | str | None = None, backend: str = "auto") -> None:
        if not names:
            raise ValueError("name at least one bootcamp")
        self.datasets = {n: BootcampDataset(n, size_per_bootcamp, seed, library=library,
                                            backend=backend) for n in dict.fromkeys(names)}
        keyed: list[tuple[float, str, int, dict[str, Any]]] = []
        for name, ds in self.datasets.items():
            record = ds.library.record(name)
            levels = record.levels or sorted({e["metadata"]["level"] for e in ds})
            for i in range(len(ds)):
                entry = ds[i]
                hard, samples = difficulty(record, entry["metadata"]["level"], levels)
                entry["metadata"].update(difficulty=round(hard, 6), rate_samples=samples)
                keyed.append((hard, name, i, entry))
        keyed.sort(key=lambda k: (k[0], k[1], k[2]))
        self._entries = [k[3] for k in keyed]

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, index: int) -> dict[str, Any]:  # type: ignore[override]
        entry = self._entries[index]
        return {**entry, "metadata": dict(entry["metadata"])}

    def score_answer(self, answer: Any, entry: Mapping[str, Any]) -> float:
        return self.datasets[entry["metadata"]["bootcamp"]].score_answer(answer, entry)

    def close(self) -> None:
        for ds in self.datasets.values():
            ds.close()
