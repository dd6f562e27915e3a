"""Source tests never touch the network: the Hugging Face hub probe is stubbed (reachable)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_hub_probe(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    probed: list[str] = []

    def probe(endpoint: str, timeout_s: float = 3.0) -> str | None:
        probed.append(endpoint)
        return None

    monkeypatch.setattr("synth.sources.codecontests._probe_hub", probe)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("HF_DATASETS_OFFLINE", raising=False)
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    return probed
