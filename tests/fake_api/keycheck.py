"""Checking that an API key shows nowhere, in any of the forms a message can carry it."""

from __future__ import annotations

import re
from urllib.parse import quote, quote_plus

# The shape of a real key: '*' and a '((' tail, all three percent-encoded in a request URL.
REAL_KEY = "Rw9*kT3x8Zp0v(("


def key_forms(key: str) -> list[str]:
    """Every way ``key`` can appear in a message: raw, and percent-encoded with upper- or lower-case hex."""
    forms = {key, quote(key, safe=""), quote(key), quote_plus(key)}
    lower_hex = {re.sub("%[0-9A-F]{2}", lambda m: m.group().lower(), f) for f in forms}
    return sorted(forms | lower_hex)


def assert_no_key(text: str, key: str = REAL_KEY) -> None:
    """``text`` holds no form of ``key`` and no ``key=`` parameter with a value other than ``***``."""
    for form in key_forms(key):
        assert form not in text, f"key leaked as {form!r}"
    assert re.search(r"\bkey=(?!\*\*\*)", text) is None, text
