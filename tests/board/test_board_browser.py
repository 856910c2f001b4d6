"""The leaderboard app in a real browser: `rend-equiv leaderboard serve` on 127.0.0.1, driven in headless Chromium.

Needs Gradio (the ``[space]`` extra), Selenium, and Debian's ``chromium`` and
``chromium-driver`` (``.ci/run`` installs them); skipped with the reason when
one is missing. Nothing here uses the network.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from rend_equiv_dataset.board.store import Kind, read_board
from rend_equiv_dataset.cli import main

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
MISSING = [name for name, ok in (("gradio", importlib.util.find_spec("gradio")), ("selenium", importlib.util.find_spec("selenium")),
                                 ("chromium", CHROMIUM), ("chromedriver", DRIVER)) if not ok]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.timeout(240),
    pytest.mark.skipif(bool(MISSING), reason=f"browser test needs {', '.join(MISSING)} "
                       "(pip install '.[space,test]'; apt-get install chromium chromium-driver)"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def server(tmp_path, release, predictions):
    """Two models submitted (one of them twice), then the app serving that board."""
    board = tmp_path / "board"
    for name, preds in (("org/a", "offset"), ("org/b", "perfect"), ("org/a", "scale")):
        args = ["submit", "--data", str(release), "--predictions", str(predictions[preds]), "--model-name", name,
                "--leaderboard", str(board), "--resamples", "20", "--model-type", "open", "--params", "7"]
        assert main(args) == 0
    records = tmp_path / "panel.jsonl"  # a 3-judge panel on 12 problems: votes and signal by hand
    records.write_text("".join(
        f'{{"problem_id": "p{i}", "label": {i % 2}, "votes": [{i % 2}, {(i // 2) % 2}, {int(i % 3 == 0)}], "signal": {i % 2 if i != 5 else 0}}}\n'
        for i in range(12)))
    assert main(["panel", "score", "--records", str(records), "--out", str(tmp_path / "panel"), "--resamples", "50", "--permutations", "20"]) == 0
    assert main(["panel", "submit", "--report", str(tmp_path / "panel"), "--panel-name", "org/panel", "--leaderboard", str(board)]) == 0
    port = free_port()
    log = open(tmp_path / "serve.log", "wb")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), "GRADIO_ANALYTICS_ENABLED": "False",
           "GRADIO_TEMP_DIR": str(tmp_path / "uploads"),
           "HF_HUB_OFFLINE": "1", "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}
    process = subprocess.Popen(
        [sys.executable, "-m", "rend_equiv_dataset", "leaderboard", "serve", "--leaderboard", str(board), "--data", str(release),
         "--host", "127.0.0.1", "--port", str(port), "--resamples", "20", "--max-upload-mb", "1"],
        stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tmp_path,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 90
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    while True:
        try:
            with opener.open(url, timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail("the app did not start:\n" + (tmp_path / "serve.log").read_text(errors="replace")[-3000:])
        time.sleep(0.3)
    yield url, board
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()


@pytest.fixture
def browser(tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,900",
                 "--no-proxy-server", f"--user-data-dir={tmp_path / 'chromium-profile'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    yield driver
    driver.quit()


def wait_for(driver, condition, what: str, timeout: float = 60.0):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.2).until(lambda d: condition(d), message=what)


def table_models(driver) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#figures-table tr.model-row')).map(r => r.dataset.model);")


def open_tab(driver, label: str) -> None:
    from selenium.webdriver.common.by import By

    tab = wait_for(driver, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "button[role=tab]") if b.text.strip() == label), None),
                   f"the {label!r} tab")
    tab.click()


def upload(driver, path: Path, model_name: str) -> str:
    """Fill the submission tab and press the button; returns the status line shown."""
    from selenium.webdriver.common.by import By

    open_tab(driver, "Submit predictions")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#upload input[type=file]"), "the file input")
    driver.find_element(By.CSS_SELECTOR, "#upload input[type=file]").send_keys(str(path))
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#upload td.filename[aria-label="{path.name}"]'), "the uploaded file's name")
    box = driver.find_element(By.CSS_SELECTOR, "#model-name input, #model-name textarea")
    box.clear()
    box.send_keys(model_name)
    driver.find_element(By.ID, "submit-button").click()
    # while the upload is scored Gradio overlays "processing | 2.3/0.2s" on the status box: wait for it to go
    return wait_for(driver, lambda d: (t := d.find_element(By.ID, "submit-status").text.strip()) and "processing |" not in t and t,
                    "a status line", timeout=120)


def test_browse_resubmit_and_upload_in_chromium(server, browser, predictions, tmp_path):
    url, board = server
    browser.get(url)
    wait_for(browser, lambda d: len(table_models(d)) == 2, "two rows in the leaderboard table")
    # both submitted models, one row each although org/a was submitted twice
    assert sorted(table_models(browser)) == ["org/a", "org/b"]
    cells = browser.execute_script(
        "return Array.from(document.querySelectorAll('#figures-table tr.model-row')).map(r => Array.from(r.cells).map(c => c.innerText));")
    by_name = {row[1]: row for row in cells}
    assert by_name["org/b"][0] == "1" and by_name["org/b"][5].startswith("1.000 [1.000, 1.000]")
    assert by_name["org/a"][4] == "2" and by_name["org/a"][2:4] == ["open", "7"]

    open_tab(browser, "Judge panels")
    panels = wait_for(browser, lambda d: d.execute_script(
        "return Array.from(document.querySelectorAll('#panels-table tr.model-row')).map(r => Array.from(r.cells).map(c => c.innerText));"),
        "the judge-panel table")
    row = read_board(board).rows(Kind.PANELS)[0]
    assert [p[1] for p in panels] == ["org/panel"] and panels[0][6] == f"{row['call_rate']:.3f}"

    version = read_board(board).version
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"render_id": "s0-0000/base", "output": "1"}\n{"render_id": "s0-0000/base", "ou')
    status = upload(browser, bad, "org/c")
    assert status.startswith("error: bad.jsonl") and len(status.splitlines()) == 1
    assert read_board(board).version == version
    open_tab(browser, "Leaderboard")
    assert sorted(table_models(browser)) == ["org/a", "org/b"]

    browser.get(url)  # a fresh page: an empty file box
    wait_for(browser, lambda d: len(table_models(d)) == 2, "the table after a reload")
    status = upload(browser, predictions["perfect"], "org/c")
    assert status == "submitted org/c: accuracy 1.000"
    open_tab(browser, "Leaderboard")
    wait_for(browser, lambda d: len(table_models(d)) == 3, "the new row")
    assert sorted(table_models(browser)) == ["org/a", "org/b", "org/c"]
    assert sorted(r["model_name"] for r in read_board(board).rows(Kind.FIGURES)) == ["org/a", "org/b", "org/c"]
    shot = tmp_path / "leaderboard.png"
    assert browser.save_screenshot(str(shot)) and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # a model's name links to its page: plots and provenance
    browser.get(url + "?model=org/a")
    wait_for(browser, lambda d: "Submissions (2, latest first)" in d.find_element("id", "model-page").text, "org/a's page")
    assert "dataset_fingerprint" in browser.find_element("id", "model-page").text
    wait_for(browser, lambda d: len(d.execute_script("return Array.from(document.querySelectorAll('img')).filter(i => i.naturalWidth > 0)")) >= 3,
             "the three report plots")
    browser.save_screenshot(str(tmp_path / "model_page.png"))
