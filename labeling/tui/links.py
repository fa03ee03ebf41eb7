"""The `o` key of every labeling screen: open the post's link in a browser, or show it where none can be used.

A browser is used only when it will not take over the terminal the session runs in: one named by ``$BROWSER``
(the user's explicit choice), or the system's default in a graphical session (macOS, Windows, X11, Wayland) unless
that default is a console browser. Everywhere else (ssh, a server, a container) the link is shown for copying.
"""

from __future__ import annotations

import os
import sys
import webbrowser
from collections.abc import Mapping

from core.schema.mining import question_link
from core.sites import PostKey

CONSOLE_BROWSERS = {"www-browser", "links", "elinks", "lynx", "w3m"}


def _graphical(env: Mapping[str, str]) -> bool:
    return sys.platform in ("darwin", "win32") or bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def open_link(url: str, env: Mapping[str, str] | None = None) -> bool:
    """Open ``url`` in a browser; False when none could be used here (then show the link instead)."""
    env = os.environ if env is None else env
    chosen = [b for b in env.get("BROWSER", "").split(os.pathsep) if b.strip()]
    try:
        if chosen:
            for name in chosen:
                try:
                    if webbrowser.get(name).open(url, new=2):
                        return True
                except webbrowser.Error:
                    continue
            return False
        if not _graphical(env):
            return False
        browser = webbrowser.get()
        if getattr(browser, "name", "") in CONSOLE_BROWSERS:
            return False
        return bool(browser.open(url, new=2))
    except (webbrowser.Error, OSError):
        return False


def post_link(shown, key: PostKey | None) -> str | None:
    """The link of the post on screen: the one stored with it (``shown``, a loaded post), else its site's link."""
    if shown is not None:
        return shown.link
    return question_link(key.id, key.site) if key is not None else None


def open_post_link(shown, key: PostKey | None) -> str | None:
    """What `o` does on every screen: open the post's link or say it; the message for the rater (None: no post)."""
    link = post_link(shown, key)
    return link_message(link, open_link(link)) if link else None


def link_message(url: str, opened: bool) -> str:
    """What the rater is told after `o`."""
    return f"opened in your browser: {url}" if opened else f"no browser here; the link: {url}"
