"""The console in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``,
installed by ``ops/chromium/ensure-chromium`` when missing), driven over WebDriver.

One browser and one server for the module, over the session's embedded Memory holding the
demo conversation (shipped with the package) in its own space. It signs in through the
form and asserts what a person sees on each page. Screenshots (1280x800) of the main pages
go to ``$CONSOLE_SCREENSHOTS`` when set (``CONSOLE_SCREENSHOTS=docs/console`` refreshes the
ones the README shows), else to a temporary folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from eywa.loaders import load_turns_file
from eywa.memory import Memory
from eywa.settings import EywaSettings
from eywa.stores.embedded.keys import SqliteKeyStore
from services.api.app import create_app, serve_in_thread

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.chrome.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

# One browser and one demo space for the module: under ``make test -n 2`` both tests run on
# the same worker, so neither is built twice.
pytestmark = pytest.mark.xdist_group("console-browser")

SPACE = "console-demo"
OTHER = "console-elsewhere"
ROOT = Path(__file__).resolve().parents[2]
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1280,800",
)  # fmt: skip


def _binaries() -> tuple[str, str]:
    found = subprocess.run([str(ROOT / "ops" / "chromium" / "ensure-chromium")], capture_output=True, text=True, timeout=900)
    if found.returncode != 0:
        pytest.fail(f"chromium is missing and could not be installed: {found.stderr.strip()}")
    chromium, driver = found.stdout.split()
    return chromium, driver


@pytest.fixture(scope="module")
def site(memory: Memory, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """The API with the console on a real socket, and keys: ``demo`` reads the demo space,
    ``other`` reads only another space."""
    with resources.as_file(resources.files("eywa").joinpath("data/demo/conversation.jsonl")) as turns:
        for _, batch in load_turns_file(turns):
            memory.remember(SPACE, batch, wait=True)
    memory.remember(OTHER, [{"text": "Nothing to see in this one.", "speaker": "Kim"}], wait=True)
    folder = tmp_path_factory.mktemp("console-browser")
    keys = SqliteKeyStore(folder / "keys.sqlite")
    secrets = {"demo": keys.create([SPACE], ["read"])[1], "other": keys.create([OTHER], ["read"])[1]}
    app = create_app(memory, EywaSettings(data_dir=folder), keys)
    with serve_in_thread(app) as url:
        yield url, secrets
    keys.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    chromium, driver = _binaries()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chrome = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=driver))
    chrome.set_page_load_timeout(30)
    chrome.set_window_size(1280, 800)
    yield chrome
    chrome.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("CONSOLE_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("console-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _sign_in(browser: WebDriver, url: str, secret: str) -> None:
    browser.delete_all_cookies()
    browser.get(f"{url}/console/login")
    browser.find_element(By.ID, "key").send_keys(secret)
    browser.find_element(By.CSS_SELECTOR, "form.login button").click()
    # A click does not wait for the navigation it starts: wait for the spaces page, or a
    # look at the page right after could still see the login form (on a loaded machine).
    WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "table caption"))


def _errors(browser: WebDriver) -> list[str]:
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]  # type: ignore[no-untyped-call]  # selenium leaves get_log unannotated


def test_the_console_shows_the_demo_as_a_person_would_see_it(
    site: tuple[str, dict[str, str]], browser: WebDriver, shots: Path, memory: Memory
) -> None:
    url, secrets = site
    _sign_in(browser, url, secrets["demo"])
    row = browser.find_element(By.CSS_SELECTOR, f'tr.space-row[data-space="{SPACE}"]')
    assert row.find_elements(By.TAG_NAME, "td")[0].text == "56"  # the demo's turns
    assert browser.find_elements(By.CSS_SELECTOR, f'tr.space-row[data-space="{OTHER}"]') == []
    browser.save_screenshot(str(shots / "spaces.png"))

    row.find_element(By.TAG_NAME, "a").click()
    assert browser.find_elements(By.CSS_SELECTOR, "section.session h2")[0].text.startswith("Session s1")
    dates = browser.find_elements(By.CSS_SELECTOR, "article.turn mark.sig-date")
    assert dates and all((d.get_attribute("title") or "").startswith("date: 20") for d in dates)
    assert any(not any(c.isdigit() for c in d.text) for d in dates)  # relative dates, shown resolved
    browser.save_screenshot(str(shots / "timeline.png"))

    browser.find_element(By.LINK_TEXT, "Entities").click()
    employer = next(d for d in memory.dimensions(SPACE) if d.attribute == "employer")
    figures = browser.find_elements(By.CSS_SELECTOR, "figure.multiple svg[role=img]")
    assert len(figures) == len(memory.dimensions(SPACE))  # one small multiple per dimension
    browser.save_screenshot(str(shots / "entities.png"))

    browser.get(f"{url}/console/spaces/{SPACE}/entities/{employer.entity}/dimensions/employer")
    assert browser.find_element(By.CSS_SELECTOR, "strong.mode").text == employer.mode
    changes = browser.find_elements(By.CSS_SELECTOR, "svg.chart a.marker.change")
    # the plot has a point where the most likely value changed to the current employer
    assert changes and changes[-1].get_attribute("data-value") == employer.mode
    assert browser.find_elements(By.CSS_SELECTOR, f'polyline[data-value="{employer.mode}"]')
    browser.save_screenshot(str(shots / "dimension.png"))
    changes[-1].send_keys(Keys.ENTER)  # a marker is reached by keyboard and leads to its row of the delta log
    assert browser.current_url.split("#")[1].startswith("delta-")

    row = browser.find_element(By.CSS_SELECTOR, "table.deltas tbody tr:last-child")
    row.find_element(By.LINK_TEXT, "belief").click()
    cited = browser.find_elements(By.CSS_SELECTOR, "article.turn mark.cited")
    assert cited and cited[0].text.strip() and cited[0].text in browser.find_element(By.CSS_SELECTOR, "article.turn p.text").text
    last = memory.deltas(SPACE, employer.entity, "employer")[-1]
    belief = memory.explain(SPACE, last.belief_id).belief
    assert browser.find_element(By.CSS_SELECTOR, "h1.statement").text == belief.statement
    chain = browser.find_elements(By.CSS_SELECTOR, "ol.chain li")
    assert len(chain) >= (2 if belief.supersedes else 1) and any("(this belief)" in li.text for li in chain)
    assert browser.find_elements(By.CSS_SELECTOR, "table.checks tbody tr")  # each check with its score
    browser.save_screenshot(str(shots / "belief.png"))

    browser.find_element(By.LINK_TEXT, "Recall inspector").click()
    browser.find_element(By.ID, "q").send_keys(f"Where does {employer.entity} work?" + Keys.ENTER)
    # The form's submission is a navigation that Enter does not wait for: wait for the answer page.
    WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "table.route"))
    assert browser.find_elements(By.CSS_SELECTOR, "table.fused tbody tr")
    assert employer.mode.casefold() in browser.find_element(By.CSS_SELECTOR, "pre.context").text.casefold()
    browser.save_screenshot(str(shots / "recall.png"))
    assert _errors(browser) == []


def test_a_key_for_another_space_cannot_open_this_one(site: tuple[str, dict[str, str]], browser: WebDriver) -> None:
    url, secrets = site
    _sign_in(browser, url, secrets["other"])
    assert browser.find_elements(By.CSS_SELECTOR, f'tr.space-row[data-space="{OTHER}"]')
    browser.get_log("browser")  # type: ignore[no-untyped-call]  # unannotated; what came before is the other test's business
    browser.get(f"{url}/console/spaces/{SPACE}")
    assert "may not read space" in browser.find_element(By.CSS_SELECTOR, "p.error").text
    assert "Halden" not in browser.page_source and "mark" not in browser.find_element(By.TAG_NAME, "main").text
    assert all("403" in message for message in _errors(browser))  # only the refusal itself
