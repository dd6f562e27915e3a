"""THE browser test: `synth review --serve` in its own process, driven by headless Chromium.

Open the list, search, open a bootcamp, fill the reason and click reject; the manifest changes
and a new process sees it. A screenshot of the detail page goes to test-artifacts/. Markup in
prompts, answers and titles is shown as text and never runs. The server and the browser leave
no process behind. Skips only when Chromium cannot be installed (scripts/browser_deps.sh).
"""

from __future__ import annotations

import base64
import os
import re
import select
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import HOSTILE, HOSTILE_TITLE, REPO, REVIEW, ReviewRun, run_cli
from helpers import CHROMEDRIVER, CHROMIUM, ensure_browser, processes_with

from synth.library import Library

ARTIFACTS = REPO / "test-artifacts"


@pytest.fixture(scope="module")
def chromium() -> None:
    ensure_browser(REPO)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def server(review_run: ReviewRun, library: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    proc = subprocess.Popen(
        [*REVIEW, "--serve", "--port", "0", "--library", str(library),
         "--runs-dir", str(review_run.runs_dir), "--sandbox", "process"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=REPO,
        env={k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")} | {"COLUMNS": "300"},
    )
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 60)
    line = proc.stdout.readline() if ready else ""
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if m is None:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError(f"the server did not start: {line!r} {proc.stderr.read()[-2000:] if proc.stderr else ''}")
    try:
        yield m.group(0), proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def _full_page_png(driver: Any, path: Path) -> None:
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    size = metrics["cssContentSize"]
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
    })
    path.write_bytes(base64.b64decode(shot["data"]))


def test_review_in_the_browser(chromium: None, server: tuple[str, subprocess.Popen[str]],
                               library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    url, proc = server
    profile = tmp_path / "chromium-profile"
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1360,1000"):
        options.add_argument(arg)
    monkeypatch.setenv("SE_OFFLINE", "true")  # selenium-manager: never download anything
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        # the list: pending review by default
        driver.get(url)
        names = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "a.name")]
        assert names == ["local_accept_a", "local_accept_x", "local_revise_b", HOSTILE]
        # search narrows it
        box = driver.find_element(By.ID, "q")
        box.send_keys("revise")
        old_list = driver.find_element(By.CSS_SELECTOR, "a.name")
        driver.find_element(By.ID, "apply").click()
        # the form reloads the page: wait for the old list to go before reading the new one
        WebDriverWait(driver, 20).until(expected_conditions.staleness_of(old_list))
        links = driver.find_elements(By.CSS_SELECTOR, "a.name")
        assert [a.text for a in links] == ["local_revise_b"]
        links[0].click()

        # the detail page
        assert driver.find_element(By.ID, "name").text == "local_revise_b"
        rows = driver.find_elements(By.CSS_SELECTOR, "#samples .level-row")
        assert [r.find_element(By.CSS_SELECTOR, ".level-head .lvl-tag").text for r in rows] == [
            "easy", "medium", "hard"]
        assert [len(r.find_elements(By.CSS_SELECTOR, ".case")) for r in rows] == [2, 2, 2]
        for case in driver.find_elements(By.CSS_SELECTOR, ".case"):
            prompt = case.find_element(By.CSS_SELECTOR, ".prompt").text
            answer = case.find_element(By.CSS_SELECTOR, ".answer").text
            nums = [int(x) for x in re.search(r"numbers: ([\d ]+)\.", prompt).group(1).split()]  # type: ignore[union-attr]
            assert answer == str(sum(nums))
        answered = Library(library).record("local_revise_b").samples
        assert len(driver.find_elements(By.CSS_SELECTOR, "table.responses tbody tr")) == answered
        assert driver.find_elements(By.CSS_SELECTOR, "svg.chart rect.bar")
        removed = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "table.diff tr.d-del")]
        assert len(removed) == 2 and removed[1].endswith("import os")
        driver.find_element(By.ID, "reason").send_keys("the hard level is out of reach: 0.00")
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / "review-detail.png"
        _full_page_png(driver, shot)
        assert shot.stat().st_size > 20_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

        # reject
        assert Library(library).record("local_revise_b").status == "pending-review"
        driver.find_element(By.ID, "reject").click()
        flash = driver.find_element(By.ID, "flash").text
        assert flash.startswith("Rejected") and "the hard level is out of reach" in flash
        rec = Library(library).record("local_revise_b")
        assert rec.status == "rejected-in-review"
        assert rec.review_reason == "the hard level is out of reach: 0.00"
        assert driver.find_elements(By.ID, "reject") == []  # no second rejection offered
        _full_page_png(driver, ARTIFACTS / "review-detail-rejected.png")

        # untrusted markup is shown, not run
        driver.get(url + f"b/{HOSTILE}")
        assert "pwned" not in driver.title
        prompts = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".case .prompt")]
        assert prompts and all(p.startswith("<script>document.title='pwned-by-prompt'</script>")
                               for p in prompts)
        answers = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".case .answer")]
        assert all(a.startswith("<img src=x onerror=") for a in answers)
        assert driver.find_elements(By.CSS_SELECTOR, ".case img, .case script") == []
        driver.get(url + "?status=all")
        assert "pwned" not in driver.title
        assert HOSTILE_TITLE in driver.find_element(By.ID, "bootcamps").text.replace("\n", " ")
        assert driver.find_elements(By.CSS_SELECTOR, "#bootcamps script, #bootcamps .sub b") == []
    finally:
        driver.quit()

    # the server stops on SIGTERM and leaves nothing behind; so does the browser
    os.killpg(proc.pid, signal.SIGTERM)
    assert proc.wait(15) is not None
    deadline = time.monotonic() + 10
    while (_group_alive(proc.pid) or processes_with(str(profile))) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _group_alive(proc.pid), "a process of the review server's group is still alive"
    assert processes_with(str(profile)) == [], "Chromium left processes behind"
    shutil.rmtree(profile, ignore_errors=True)

    # a new process sees the decision
    res = run_cli([*REVIEW, "--library", str(library), "--status", "rejected-in-review"])
    assert res.returncode == 0 and "local_revise_b" in res.stdout
    assert "the hard level is out of reach" in res.stdout
