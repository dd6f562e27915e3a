"""audit.html in headless Chromium: the summary counts and the table agree with audit.csv,
filtering and sorting work, a module's findings open with their severity label, and a
screenshot goes to test-artifacts/audit.png (``SYNTH_README_SCREENSHOTS=1``: also to
docs/audit.png, shown by docs/audit.md). Skips only when Chromium cannot be installed
(scripts/browser_deps.sh)."""

from __future__ import annotations

import base64
import csv
import os
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from audit_helpers import CHECKERS, invoke
from helpers import CHROMEDRIVER, CHROMIUM, ensure_browser

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def chromium() -> None:
    ensure_browser(REPO)


def _full_page_png(driver: Any, path: Path) -> None:
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}})
    path.write_bytes(base64.b64decode(shot["data"]))


def test_audit_html_in_the_browser(chromium: None, library: Callable[..., Path], tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    folder = library("sum_fine", "max_fine", "anything_goes", "needs_fakedep", "sort_any_order")
    checkers = tmp_path / "checkers"
    checkers.mkdir()
    (checkers / "sort_any_order.py").write_text(CHECKERS["sort_any_order"], encoding="utf-8")
    out = tmp_path / "out"
    res = invoke(str(folder), "--out", str(out), "--sandbox", "process", "--checkers",
                 str(checkers))
    assert res.exit_code == 1, res.output
    with (out / "audit.csv").open(encoding="utf-8", newline="") as fh:
        rows = {r["module"]: r for r in csv.DictReader(fh)}
    verdicts = Counter(r["verdict"] for r in rows.values())
    assert verdicts["rejected"] >= 2 and verdicts["cannot_judge"] == 1

    profile = tmp_path / "chromium-profile"
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1280,900"):
        options.add_argument(arg)
    monkeypatch.setenv("SE_OFFLINE", "true")  # selenium-manager: never download anything
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        driver.get((out / "audit.html").as_uri())
        # the summary counts are the CSV's
        def card(name: str) -> str:
            return driver.find_element(By.CSS_SELECTOR, f"#card-{name} .v").text

        assert card("modules") == "5"
        for name, verdict in (("accepted", "accepted"), ("rejected", "rejected"),
                              ("cannot-judge", "cannot_judge")):
            assert card(name) == str(verdicts[verdict]), name
        table = driver.find_elements(By.CSS_SELECTOR, "#modules tbody tr")
        assert sorted(r.find_element(By.TAG_NAME, "a").text for r in table) == sorted(rows)

        def visible() -> list[str]:
            return [r.find_element(By.TAG_NAME, "a").text for r in table if r.is_displayed()]

        # filter by text, then by verdict
        box = driver.find_element(By.ID, "q")
        box.send_keys("fakedep")
        assert visible() == ["needs_fakedep.py"]
        box.clear()
        box.send_keys(" ")  # an input event: back to every row
        Select(driver.find_element(By.ID, "verdict-filter")).select_by_value("rejected")
        assert sorted(visible()) == sorted(m for m, r in rows.items() if r["verdict"] == "rejected")
        assert driver.find_element(By.ID, "shown").text == f"{verdicts['rejected']} of 5 modules shown"
        Select(driver.find_element(By.ID, "verdict-filter")).select_by_value("")
        box.clear()
        box.send_keys(" ")
        assert len(visible()) == 5
        # sort by verdict
        driver.find_element(By.XPATH, "//table[@id='modules']//th[text()='verdict']").click()
        order = [r.find_elements(By.TAG_NAME, "td")[2].text for r in
                 driver.find_elements(By.CSS_SELECTOR, "#modules tbody tr")]
        assert order == sorted(order)
        # a rejected module's findings, with their severity labels, open from the table
        link = driver.find_element(By.LINK_TEXT, "sort_any_order.py")
        link.click()
        details = driver.find_element(By.ID, link.get_attribute("href").split("#")[1])
        assert details.get_attribute("open") is not None
        labels = [e.text for e in details.find_elements(By.CSS_SELECTOR, ".finding .sev")
                  if e.is_displayed()]
        assert "REJECT" in labels and "CONVENTION" in labels  # CSS upper-cases the class name
        lenient = details.find_element(By.XPATH, ".//code[text()='differential/verifier_too_lenient']")
        assert lenient.is_displayed()
        driver.execute_script("window.scrollTo(0, 0)")
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / "audit.png"
        _full_page_png(driver, shot)
        assert shot.stat().st_size > 20_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        if os.environ.get("SYNTH_README_SCREENSHOTS") == "1":
            (REPO / "docs").mkdir(exist_ok=True)
            shutil.copyfile(shot, REPO / "docs" / "audit.png")
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
