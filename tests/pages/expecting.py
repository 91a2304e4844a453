"""Playwright's `expect` for the browser tests, looking at the page every tenth of a second.

Playwright waits longer and longer between its looks at the page (20, 50, 100, 100 ms, then
every 500 ms), unless the assertion's timeout is under 2.5 s, when it keeps to 100 ms. On
two busy cores most of what a test waits for (an answer from the server, drawn on each page)
comes after the first 270 ms, and was then seen up to half a second late, many times a
test (every `step`, `live` and `wait_for_log` waits on one). So each assertion here is
Playwright's, asked with a 2 s timeout again and again until its own timeout (15 s unless
the call names one) has passed: it passes as soon as one look does, and fails with
Playwright's message of the last look."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import expect as playwright_expect

TIMEOUT = 15_000
"""Milliseconds an assertion waits in all: the whole suite runs beside these on two cores."""

LOOK = 2_000
"""Milliseconds of one of Playwright's assertions: under 2.5 s, it looks every 100 ms."""


class Eager:
    """Playwright's assertions on one page, locator or response, asked again every `LOOK`."""

    def __init__(self, assertions: Any) -> None:
        self._assertions = assertions

    def __getattr__(self, name: str) -> Any:
        check = getattr(self._assertions, name)

        def eager(*args: Any, timeout: float | None = None, **kwargs: Any) -> None:
            __tracebackhide__ = True
            deadline = time.monotonic() + (timeout or TIMEOUT) / 1000
            while True:
                left = (deadline - time.monotonic()) * 1000
                try:
                    return check(*args, timeout=max(1.0, min(LOOK, left)), **kwargs)
                except AssertionError:
                    if time.monotonic() >= deadline:
                        raise

        return eager


def expect(actual: Any, message: str | None = None) -> Any:
    """Assertions on `actual` that wait for it as Playwright's do, looking more often."""
    return Eager(playwright_expect(actual, message))
