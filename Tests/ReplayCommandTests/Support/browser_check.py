#!/usr/bin/env python3
"""Drives a recording's HTML page in headless Chromium as a person would, and prints what the
page showed as one JSON document.

    browser_check.py PAGE.html [--step N] [--search TEXT] [--screenshot PNG] [--dump-data FILE]
                     [--show-more] [--timing-only]

--screenshot is taken once the page is ready, at --step when it is given; --dump-data writes
the records the page unpacked; --show-more clicks the state tree's first "Show more" button until
it is gone, noting the children of its node each time.

Exits with 3, saying why on standard error, when Chromium or Playwright is missing.
"""
import json
import os
import shutil
import sys
import time


def chromium_path():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


# Seconds: how long a wait for the page may take before the page counts as hung. Not a
# judgement of speed (the timing figures are measured, never checked here): a busy machine may
# be slow, never that slow.
HANG_BOUND = 120


def wait_until(page, expression, timeout=HANG_BOUND):
    """Polls `expression` in the page until it is true. (Playwright's wait_for_function evaluates
    a string, which the page's Content-Security-Policy forbids.)"""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate(expression):
            return True
        time.sleep(0.02)
    return False


def main():
    arguments = sys.argv[1:]
    if not arguments:
        print(__doc__, file=sys.stderr)
        return 2
    page_path = os.path.abspath(arguments[0])

    def option(name):
        if name in arguments:
            return arguments[arguments.index(name) + 1]
        return None

    search = option("--search")
    screenshot = option("--screenshot")
    timing_only = "--timing-only" in arguments
    step = option("--step")
    dump = option("--dump-data")
    show_more = "--show-more" in arguments
    every_step = "--every-step" in arguments
    executable = chromium_path()
    if executable is None:
        print("Chromium is missing: apt-get install -y chromium", file=sys.stderr)
        return 3
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("Playwright for Python is missing: python3 -m pip install playwright", file=sys.stderr)
        return 3

    url = "file://" + page_path
    facts = {"requests": [], "errors": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        facts["dialogs"] = []
        page.on("dialog", lambda dialog: (facts["dialogs"].append(dialog.message), dialog.dismiss()))
        page.on("request", lambda request: facts["requests"].append(request.url))
        page.on("pageerror", lambda error: facts["errors"].append(str(error)))
        page.on("console", lambda message: facts["errors"].append(message.text)
                if message.type == "error" else None)
        started = time.monotonic()
        page.goto(url + ("#step=" + step if step else ""))
        wait_until(page, "document.body.dataset.ready !== undefined")
        facts["loadSeconds"] = time.monotonic() - started
        facts["ready"] = page.evaluate("document.body.dataset.ready")
        facts["timings"] = page.evaluate("""() => {
            const ready = performance.getEntriesByName('replay-ready')[0];
            const loaded = performance.getEntriesByName('replay-loaded')[0];
            const paint = performance.getEntriesByName('first-contentful-paint')[0];
            return {ready: ready ? ready.startTime : null, loaded: loaded ? loaded.startTime : null,
                    firstContentfulPaint: paint ? paint.startTime : null};
        }""")
        # Requests other than the page itself.
        facts["requests"] = [r for r in facts["requests"] if not r.startswith(url)]
        if screenshot and facts["ready"] == "true":
            # A moment for the picture to settle: screenshots are for the README, not checked.
            page.wait_for_timeout(100)
            page.screenshot(path=screenshot)
        if dump:
            text = page.evaluate("""async () => {
                const binary = atob(document.getElementById('recording-data').textContent.trim());
                const bytes = Uint8Array.from(binary, c => c.charCodeAt(0));
                const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
                return await new Response(stream).text();
            }""")
            with open(dump, "w", encoding="utf-8") as file:
                file.write(text)
        if show_more and facts["ready"] == "true":
            steps = []
            for _ in range(100):
                state = page.evaluate("""() => {
                    const more = document.querySelector('.state-tree .more');
                    if (more) more.parentElement.id = 'show-more-node';
                    const node = document.getElementById('show-more-node');
                    return {children: node ? [...node.children].filter(c => c.tagName === 'DETAILS' || c.classList.contains('leaf')).length : 0,
                            button: more ? more.textContent : null};
                }""")
                steps.append(state)
                if state["button"] is None:
                    break
                page.click(".state-tree .more")
                wait_until(page, """(() => {
                    const node = document.getElementById('show-more-node');
                    const more = document.querySelector('.state-tree .more');
                    return [...node.children].filter(c => c.tagName === 'DETAILS' || c.classList.contains('leaf')).length > %d
                        || (more && more.textContent !== %s) || !more;
                })()""" % (state["children"], json.dumps(state["button"])))
            facts["showMore"] = steps
        if facts["ready"] != "true" or timing_only:
            facts["title"] = page.inner_text("#title")
            print(json.dumps(facts))
            browser.close()
            return 0

        def selected():
            return page.evaluate("""() => {
                const detail = document.getElementById('detail');
                const row = document.querySelector('#list .row.selected');
                return {
                    step: detail.dataset.step ? Number(detail.dataset.step) : null,
                    heading: (detail.querySelector('h2') || {}).textContent || null,
                    row: row ? Number(row.dataset.step) : null,
                    diff: [...detail.querySelectorAll('.diff:not(.failure) .line')].map(l => [l.classList.contains('added') ? '+' : '-', l.textContent]),
                    failure: [...detail.querySelectorAll('.diff.failure .line')].map(l => [l.classList.contains('added') ? '+' : l.classList.contains('removed') ? '-' : ' ', l.textContent]),
                    diffEmpty: (detail.querySelector('.diff .empty') || {}).textContent || null,
                    effects: [...detail.querySelectorAll('ul.effects li')].map(l => l.textContent),
                    verdictText: (detail.querySelector('pre.verdict-text') || {}).textContent || null,
                    shared: [...detail.querySelectorAll('.shared-change')].map(p => p.textContent),
                    hash: location.hash,
                };
            }""")

        facts["actions"] = int(page.evaluate("document.body.dataset.actions"))
        facts["status"] = page.inner_text("#list-status")
        facts["title"] = page.inner_text("#title")
        facts["facts"] = page.inner_text("#facts")
        facts["metadata"] = page.inner_text("#metadata")
        facts["window"] = page.evaluate("document.getElementById('window').hidden ? null : document.getElementById('window').textContent")
        facts["verdict"] = page.evaluate("""() => {
            const v = document.getElementById('verdict');
            return v.hidden ? null : {class: v.className, text: v.textContent};
        }""")
        facts["failures"] = page.evaluate(
            "document.getElementById('failures').hidden ? null : document.getElementById('failures').textContent")
        facts["failedRows"] = page.evaluate(
            "[...document.querySelectorAll('#list .row.failed')].map(r => Number(r.dataset.step))")
        facts["divergentRows"] = page.evaluate(
            "[...document.querySelectorAll('#list .row.divergent')].map(r => Number(r.dataset.step))")
        # What a hostile report could have put in the page as markup: elements the page never
        # makes, and the page's own text as the reader sees it.
        facts["foreignElements"] = page.evaluate("""() =>
            document.querySelectorAll('img, iframe, object, embed, svg, form, link, base').length
            + Math.max(0, document.querySelectorAll('script').length - 2)
            + Math.max(0, document.querySelectorAll('meta').length - 4)""")
        facts["bodyText"] = page.evaluate("document.body.innerText")
        facts["injected"] = page.evaluate("window.__injected === undefined ? null : String(window.__injected)")
        facts["sharedMarks"] = page.evaluate(
            "document.getElementById('timeline').dataset.sharedMarks || null")
        facts["sharedRows"] = page.evaluate(
            "[...document.querySelectorAll('#list .row .shared-mark')].map(m => Number(m.parentElement.dataset.step))")
        facts["initial"] = selected()
        facts["colorScheme"] = page.evaluate("getComputedStyle(document.body).backgroundColor")

        # Every step, as a reader goes through them: the list's row and the step's action, and
        # the labels of the state tree opened all the way.
        if every_step:
            page.focus("#list")
            page.keyboard.press("Home")
            steps = []
            for _ in range(facts["actions"]):
                for _ in range(64):
                    opened = page.evaluate("""() => {
                        const closed = [...document.querySelectorAll('#detail .state-tree details:not([open])')];
                        closed.forEach(d => { d.open = true; });
                        return closed.length;
                    }""")
                    if opened == 0:
                        break
                    page.wait_for_timeout(1)
                steps.append(page.evaluate("""() => {
                    const detail = document.getElementById('detail');
                    const row = document.querySelector('#list .row.selected .name');
                    return {
                        step: Number(detail.dataset.step),
                        row: row ? row.textContent.trim() : null,
                        action: (detail.querySelector('.action-swift code') || {}).textContent || null,
                        labels: [...detail.querySelectorAll('.state-tree .key')].map(k => k.textContent),
                        origin: (detail.querySelector('.origin-line') || {}).textContent || null,
                    };
                }"""))
                page.keyboard.press("ArrowDown")
            facts["everyStep"] = steps

        # Keyboard: the first step, then two down and one up.
        page.focus("#list")
        page.keyboard.press("Home")
        facts["home"] = selected()
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        facts["down2"] = selected()
        page.keyboard.press("ArrowUp")
        facts["up1"] = selected()

        # Open a node of the state tree that is closed.
        closed = page.query_selector(".state-tree details:not([open]) > summary")
        if closed is None:
            facts["openedNode"] = None
        else:
            closed.click()
            # The node's children are built on its toggle event, after the click.
            closed.evaluate("summary => summary.parentElement.id = 'opened-node'")
            wait_until(page, "(() => { const n = document.getElementById('opened-node'); "
                       "return n.open && n.children.length > 1; })()")
            facts["openedNode"] = closed.evaluate("""summary => {
                const node = summary.parentElement;
                return {path: node.dataset.path, open: node.open,
                        children: [...node.children].filter(c => c.tagName !== 'SUMMARY').map(c => c.textContent.slice(0, 80))};
            }""")

        # Search with "/".
        if search is not None:
            page.keyboard.press("/")
            facts["searchFocused"] = page.evaluate("document.activeElement.id")
            page.keyboard.type(search)
            # The list filters a moment after the last key (a debounce): wait until it has.
            wait_until(page, "document.getElementById('list').dataset.query === %s"
                       % json.dumps(search.strip().lower()))
            facts["searchStatus"] = page.inner_text("#list-status")
            facts["searchRows"] = page.evaluate(
                "[...document.querySelectorAll('#list .row')].map(r => Number(r.dataset.step))")
            page.keyboard.press("Enter")
            facts["searchSelected"] = selected()
            page.keyboard.press("/")
            page.keyboard.press("Escape")
            wait_until(page, "document.getElementById('list').dataset.query === ''")
            facts["clearedStatus"] = page.inner_text("#list-status")

        # The filter by case: its second option, the first case name.
        facts["caseFilter"] = page.evaluate("""() => {
            const select = document.getElementById('case-filter');
            if (select.options.length < 2) return null;
            select.selectedIndex = 1;
            select.dispatchEvent(new Event('change'));
            return {option: select.options[1].textContent,
                    status: document.getElementById('list-status').textContent};
        }""")

        # Dark mode follows the system.
        page.emulate_media(color_scheme="dark")
        facts["darkColorScheme"] = page.evaluate("getComputedStyle(document.body).backgroundColor")
        facts["requests"] = [r for r in facts["requests"] if not r.startswith(url)]
        browser.close()
    print(json.dumps(facts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
