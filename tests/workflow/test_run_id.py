"""`synth run --run-id NAME`: a long run gets a name to resume by on another machine (its folder
kept with the repository, see docs/embedded-model.md), and a name is never reused."""

from __future__ import annotations

from pathlib import Path

from e2e import FakeEndpoint, outcomes, run_args, synth, synth_env, write_tasks


def test_a_named_run_is_resumed_by_its_name_and_the_name_is_not_reused(tmp_path: Path) -> None:
    fake = FakeEndpoint(tmp_path, "toy")
    try:
        env = synth_env(fake.base_url)
        tasks = write_tasks(tmp_path / "tasks", ["broken-0"])  # one draft, no revision: quick
        args = run_args(tasks, tmp_path / "lib", tmp_path / "runs", "--rounds", "0", "--candidates", "1")
        res = synth([*args, "--run-id", "campaign-toy"], env)
        assert res.returncode == 0, res.stderr[-2000:]
        run_dir = tmp_path / "runs" / "campaign-toy"
        assert [d.name for d in (tmp_path / "runs").iterdir()] == ["campaign-toy"]
        done = outcomes(run_dir)
        assert list(done) == ["local/broken-0"] and done["local/broken-0"][0] == "rejected"

        again = synth([*args, "--force", "--run-id", "campaign-toy"], env)
        assert again.returncode != 0 and "already exists" in again.stderr
        both = synth([*args, "--run-id", "campaign-toy", "--resume", "campaign-toy"], env)
        assert both.returncode != 0 and "--run-id names a new run" in both.stderr
        outside = synth([*args, "--force", "--run-id", "../elsewhere"], env)
        assert outside.returncode != 0 and not (tmp_path / "elsewhere").exists()

        resumed = synth([*args, "--resume", "campaign-toy"], env)
        assert resumed.returncode == 0, resumed.stderr[-2000:]
        assert "resuming run campaign-toy" in resumed.stderr
        assert outcomes(run_dir) == done
    finally:
        fake.close()
