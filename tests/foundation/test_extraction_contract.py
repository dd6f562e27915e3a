"""The contract's extraction is the only one: a single-turn bootcamp may not override
``extract_output`` or ``wrap_answer`` (issue 22: response-shape sleepers)."""

from __future__ import annotations

import pytest

from synth.bootcamp import BaseBootcamp, CompiledBootcamp


@pytest.mark.parametrize("base", [BaseBootcamp, CompiledBootcamp])
@pytest.mark.parametrize("name", ["extract_output", "wrap_answer"])
def test_overriding_the_extraction_is_a_contract_error(base: type, name: str) -> None:
    with pytest.raises(TypeError, match=f"overrides {name}"):
        type("Sleeper", (base,), {name: staticmethod(lambda text: text)})


def test_the_contract_extraction_reads_the_last_block_whatever_precedes_it() -> None:
    long = "x" * 6000 + "<answer>1</answer> prose <answer> 2 </answer> trailing"
    assert BaseBootcamp.extract_output(long) == "2"
    assert BaseBootcamp.extract_output("The answer is 3.") is None
