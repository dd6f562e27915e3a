"""What every exporter shares: the export's config and summary, the row in verl's shape, the
seed of each row, and the library's sources (hash-checked code, never imported here).

The local exporter (:mod:`synth.training.export`) and the Ray one (:mod:`synth.training.export_ray`) build the
same rows from these, so their files are identical."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from synth.library import Library
from synth.sandbox.kit import derive_seed
from synth.serving.sampling import Sample
from synth.text.utf8 import describe, find_unencodable
from synth.training.curriculum import LevelDifficulty

if TYPE_CHECKING:
    pass


Split = Literal["train", "test"]
SPLITS: tuple[Split, Split] = ("test", "train")  # generation order: test first
SERVER_LABEL = "synth-export-server"


class ExportConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    out: Path
    library: Path | None = None
    per_bootcamp: int = Field(default=200, ge=0, le=1_000_000)
    test_per_bootcamp: int = Field(default=50, ge=0, le=1_000_000)
    level: str | None = None
    seed: int = 0
    format: Literal["jsonl", "parquet", "hf"] = "jsonl"
    curriculum: bool = Field(default=False, description="order train rows easy to hard by the "
                             "library's per-level pass rates (see synth.training.curriculum)")
    workers: int = Field(default=2, ge=1, le=256, description="concurrent method servers")
    bootcamps: list[str] | None = None
    chunk_size: int = Field(default=64, ge=1, le=100_000, description="specs per sample call")
    sandbox: Literal["auto", "process", "bwrap", "docker"] = "auto"
    call_limit_s: float = Field(default=10.0, gt=0, le=600, description="per bootcamp call")
    executor: Literal["local", "ray"] = Field(default="local", description="local: method "
                                              "servers in this process tree; ray: Ray tasks on "
                                              "a cluster, parquet shards (synth.training.export_ray)")
    ray_address: str | None = Field(default=None, description="the Ray cluster (default: the "
                                    "connected one, else RAY_ADDRESS, else a new local one)")
    spot_check: bool = Field(default=True, description="audit a random sample of each "
                             "bootcamp's rows in a fresh worker (synth.training.spotcheck); a bootcamp "
                             "that fails is quarantined and its rows left out")


class BootcampExportStats(BaseModel):
    model_config = ConfigDict(extra="forbid")

    train: int = 0
    test: int = 0
    generated: int = 0
    dup_within_split: int = 0
    dup_across_splits: int = 0
    short_by: int = 0


class ExportSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    files: list[str]
    rows: dict[str, int]
    duplicates_dropped: int
    per_bootcamp: dict[str, BootcampExportStats]
    elapsed_s: float
    workers: int
    backend: str = ""
    servers_started: int = 0
    curriculum: list[LevelDifficulty] | None = None
    #: bootcamps whose rows failed the spot-check: quarantined, their rows left out (why)
    quarantined: dict[str, str] = Field(default_factory=dict)
    spot_checked: int = 0  # rows spot-checked in all
    spot_check_s: float = 0.0


class ExportError(Exception):
    """A bootcamp failed while exporting; the message names it, the row and the exception.
    ``traceback``: the bootcamp's traceback or the sandbox's stderr tail, also attached as a
    note (a caller that lets the error through shows it with the message)."""

    def __init__(self, message: str, traceback: str = "") -> None:
        super().__init__(message)
        self.traceback = traceback
        if traceback.strip():
            self.add_note("the bootcamp's traceback or the sandbox's stderr:\n"
                          + traceback.rstrip()[-1500:])


def case_seed(seed: int, name: str, split: str, index: int) -> int:
    """The seed of row ``index`` of ``split`` for bootcamp ``name`` (the kit's derivation)."""
    return derive_seed(seed, name, split, index)


def make_row(name: str, split: str, index: int, sample: Sample) -> dict[str, Any]:
    """One verl row from a validated sample (``ground_truth`` is the case's canonical JSON).

    A multi-turn bootcamp's row is an episode: the prompt is its first observation, the ground
    truth its identity, and ``extra_info`` also says ``multi_turn: true`` and ``max_turns``
    (the episode is played with :func:`synth.serving.rollout.rollout` or a trainer adapter, and
    :func:`synth.training.reward.compute_score` scores a decoded conversation as the whole episode)."""
    row: dict[str, Any] = {
        "data_source": f"bootcamp/{name}",
        "prompt": [{"role": "user", "content": sample.prompt}],
        "ability": "reasoning",
        "reward_model": {"style": "rule", "ground_truth": sample.case_text},
        "extra_info": {
            "bootcamp": name,
            "level": sample.level,
            "seed": sample.seed,
            "index": index,
            "split": split,
        },
    }
    if sample.max_turns is not None:
        row["extra_info"].update(multi_turn=True, max_turns=sample.max_turns)
    return row


def prompt_key(row: dict[str, Any]) -> str:
    # surrogatepass: a key never fails; the writer refuses such a row, naming it (unwritable)
    return hashlib.sha256(row["prompt"][0]["content"].encode("utf-8", "surrogatepass")).hexdigest()


def unwritable(rows: Iterable[dict[str, Any]], target: str) -> ExportError:
    """The error of a writer that failed on text UTF-8 cannot encode: it names the first such
    row's bootcamp, split and index, and where in the row the text is."""
    for row in rows:
        places = find_unencodable(row, 1)
        if places:
            info = row.get("extra_info") or {}
            return ExportError(f"bootcamp {info.get('bootcamp')!r}: row {info.get('split')}"
                               f"[{info.get('index')}] cannot be written to {target}: "
                               f"{describe(places[0], 'the row')}")
    return ExportError(f"cannot write {target}: a row holds text UTF-8 cannot encode")


@dataclass
class Source:
    name: str
    code: str
    class_name: str
    levels: list[str] | None = None  # from the first handshake; every later one must agree


def read_sources(lib: Library, names: list[str]) -> dict[str, Source]:
    sources = {}
    for n in names:  # hash-checked against the manifest, never imported
        rec, code = lib.checked_code(n)
        sources[n] = Source(n, code, rec.class_name)
    return sources
