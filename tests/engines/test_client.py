"""The vetted engine client (synth/engines.py) in a trusted host process, against the real GNU Go
and a stand-in engine that hangs: what a bootcamp may send, bounded calls, no process left,
answers that depend only on the position."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import assert_no_leftovers, pids_with

from synth import engines
from synth.engines import EngineError, EngineSpec, EngineTimeout, GtpError, engine

FAKE = Path(__file__).with_name("fake_gtp.py")


def _children(pid: int) -> set[int]:
    found = set()
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(name))
    return found


@pytest.fixture
def fake() -> Iterator[str]:
    """A registered stand-in engine, ``fake``, that answers its version and hangs otherwise."""
    engines.REGISTRY["fake"] = EngineSpec(
        name="fake", paths=(sys.executable,), args=("-u", str(FAKE)), package="(test engine)",
        commands=("name", "version", "boardsize", "genmove"), timeout_s=1.0)
    yield "fake"
    engines._close_channel()
    del engines.REGISTRY["fake"]


def test_version_and_a_game() -> None:
    gtp = engine("gnugo")
    assert gtp.version().startswith("GNU Go 3.")
    gtp.new_game(9, komi=7.0, moves=[("B", "E5"), ("W", "C3")])
    assert sorted(gtp.stones("black")) == ["E5"] and gtp.stones("W") == ["C3"]
    move = gtp.reg_genmove("B")
    assert move in gtp.legal_moves("B")
    values = gtp.move_values()
    assert values and max(values.values()) > 0
    assert gtp.is_legal("B", "D4") and not gtp.is_legal("B", "E5")
    assert isinstance(gtp.estimate_score(), float)


def test_commands_a_bootcamp_may_not_send_are_refused() -> None:
    gtp = engine("gnugo")
    for text in ("loadsgf /etc/passwd", "printsgf /tmp/x.sgf", "time_settings 1 1 1",
                 "set_random_seed 0", "level 99", "quit", "play b A1\nloadsgf x", "",
                 "start_sgftrace", "genmove b \x00"):
        with pytest.raises(EngineError) as caught:
            gtp.command(text)
        assert not isinstance(caught.value, GtpError), text
    gtp.command("level 3")
    gtp.command("set_random_seed 42")


def test_an_illegal_move_is_a_gtp_error_naming_the_command() -> None:
    gtp = engine("gnugo")
    gtp.new_game(9, moves=[("B", "E5")])
    with pytest.raises(GtpError, match="play black E5"):
        gtp.play("B", "E5")
    gtp.play("W", "E4")  # the engine is still there


def test_a_slow_command_is_stopped_at_its_timeout_and_a_fresh_engine_follows() -> None:
    gtp = engine("gnugo")
    moves = [("B" if i % 2 == 0 else "W", f"{'CDEFGHJKLMNOPQ'[i % 14]}{3 + (i * 7) % 15}")
             for i in range(40)]
    gtp.new_game(19, moves=moves, level=10)  # scattered stones: seconds of reading
    broker = engines._channel
    assert broker is not None
    before = _children(broker.proc.pid)
    assert len(before) == 1  # the gnugo process
    start = time.monotonic()
    with pytest.raises(EngineTimeout, match="genmove black") as caught:
        gtp.genmove("B", timeout=0.02)
    elapsed = time.monotonic() - start
    assert elapsed < 2.0, elapsed
    assert "killed" in str(caught.value)
    deadline = time.monotonic() + 2
    while _children(broker.proc.pid) & before and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _children(broker.proc.pid) & before, "the timed-out engine is still running"
    gtp.new_game(9)
    assert gtp.genmove("B") not in ("", "PASS")


def test_a_hung_engine_costs_its_timeout_and_leaves_no_process(fake: str) -> None:
    gtp = engine(fake)
    hung_pid = int(gtp.version().split()[-1])
    start = time.monotonic()
    with pytest.raises(EngineTimeout, match="'genmove b' within 1s"):
        gtp.command("genmove b")
    elapsed = time.monotonic() - start
    assert 0.9 < elapsed < 2.5, elapsed
    assert not os.path.exists(f"/proc/{hung_pid}") or _state(hung_pid) == "Z"
    # a batch stops at the first command that hangs: bounded by one timeout, not three
    start = time.monotonic()
    with pytest.raises(EngineTimeout):
        gtp.commands(["genmove b", "genmove w", "genmove b"], timeout=0.5)
    assert time.monotonic() - start < 2.0


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def test_closing_the_channel_stops_the_broker_and_its_engines() -> None:
    before = pids_with("/usr/games/gnugo")
    gtp = engine("gnugo")
    gtp.new_game(9)
    gtp.genmove("B")
    broker = engines._channel
    assert broker is not None
    assert pids_with("/usr/games/gnugo") - before
    engines._close_channel()
    assert broker.proc.poll() is not None
    assert_no_leftovers("/usr/games/gnugo", before=before)


def test_a_client_gone_mid_command_stops_the_engine_at_once(fake: str) -> None:
    """The broker watches its request pipe while an engine works: a method server that ends
    during a long command (a deep search) takes the engine with it, not after the timeout."""
    engines.REGISTRY[fake] = dataclasses.replace(engines.REGISTRY[fake], timeout_s=30.0)
    channel = engines._open_channel((fake,))
    hung_pid = int(channel.state[fake]["version"].split()[-1])
    engines._write_line(channel.wfd, {"id": 1, "engine": fake, "op": "gtp",
                                      "cmds": ["genmove b"], "timeout": 30})
    time.sleep(0.3)  # the engine is working on it
    assert _state(hung_pid) not in ("gone", "Z")
    start = time.monotonic()
    for stream in (channel.proc.stdin, channel.proc.stdout):
        stream.close()
    channel.proc.wait(timeout=10)
    elapsed = time.monotonic() - start
    assert elapsed < 5.0, elapsed  # the command's timeout is 30 s
    assert _state(hung_pid) in ("gone", "Z")


def _analysis(moves: list[tuple[str, str]], size: int) -> tuple[str, dict[str, float]]:
    gtp = engine("gnugo")
    gtp.new_game(size, komi=7.0, moves=moves, level=3)
    color = "B" if len(moves) % 2 == 0 else "W"
    return gtp.reg_genmove(color), gtp.move_values()


def test_a_positions_analysis_does_not_depend_on_what_the_engine_did_before() -> None:
    # GNU Go keeps caches across clear_board: the same position analysed twice in one process
    # gave values that differ in the second decimal. new_game starts a fresh engine.
    gtp = engine("gnugo")
    positions = []
    for seed_moves in (8, 12, 20):
        gtp.new_game(9, level=0)
        moves = []
        for ply in range(seed_moves):
            color = "B" if ply % 2 == 0 else "W"
            moves.append((color, gtp.genmove(color)))
        positions.append(moves)
    first = [_analysis(m, 9) for m in positions]
    again = [_analysis(m, 9) for m in reversed(positions)][::-1]
    twice = [_analysis(m, 9) for m in positions]
    assert first == again == twice



def test_the_broker_logs_every_command_it_was_asked_and_starts_again_when_read() -> None:
    gtp = engine("gnugo")
    gtp.version()
    engines.command_log()  # what came before
    gtp.new_game(9, 6.5, [("B", "E5")])
    gtp.command("set_random_seed 7")
    with pytest.raises(EngineError, match="not allowed"):
        gtp.command("loadsgf /etc/passwd")  # refused, and logged all the same
    log = engines.command_log()
    assert log["count"] == 7
    assert log["head"] == ["gnugo: (restart)", "gnugo: boardsize 9", "gnugo: clear_board",
                           "gnugo: komi 6.5", "gnugo: play black E5", "gnugo: set_random_seed 7",
                           "gnugo: loadsgf /etc/passwd"]
    assert engines.command_log() == {"count": 0, "digest": hashlib.sha256().hexdigest(),
                                     "head": []}
    # the digest covers every command; the head shows only the first LOG_HEAD
    logs = []
    for seed in (7, 8, 7):
        gtp.commands(["get_komi"] * engines.LOG_HEAD + [f"set_random_seed {seed}"])
        logs.append(engines.command_log())
    assert [g["count"] for g in logs] == [engines.LOG_HEAD + 1] * 3
    assert logs[0]["head"] == logs[1]["head"] == ["gnugo: get_komi"] * engines.LOG_HEAD
    assert logs[0]["digest"] == logs[2]["digest"] != logs[1]["digest"]
