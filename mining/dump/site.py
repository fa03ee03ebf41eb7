"""Which site a dump comes from: named by its path (``.../ai.stackexchange.com/Posts.xml``,
``ai.stackexchange.com-Posts.7z``, ``stackoverflow.com-Posts.xml``) or by ``--site``, never guessed.

Importing a dump under the wrong site would file every post under another site's id (a different question with
the same number), so a path and ``--site`` that disagree, two files from different sites, or neither naming a site
(standard input, a bare ``Posts.xml``) all stop the import with a line saying what to pass.
"""

from __future__ import annotations

import os
import re

from core.errors import UsageError
from core.sites import normalize_site, site_from_host

_HOST = re.compile(r"(?<![a-z0-9.-])((?:[a-z0-9-]+\.)+(?:stackexchange\.com|com))(?![a-z0-9])", re.IGNORECASE)


def site_in_path(path: str | None) -> str | None:
    """The site the path names, from the component closest to the file (``None`` if none names one)."""
    if not path or path == "-":
        return None
    for part in reversed(os.path.normpath(os.path.abspath(path)).split(os.sep)):
        for host in reversed(_HOST.findall(part)):
            site = site_from_host(host)
            if site:
                return site
    return None


def dump_site(given: str | None, *paths: str | None) -> str:
    """The site to import ``paths`` as: the one their paths name, which ``--site`` (``given``) must agree with."""
    named = {path: site for path in paths if (site := site_in_path(path))}
    if len(set(named.values())) > 1:
        shown = ", ".join(f"{p} -> {s}" for p, s in named.items())
        raise UsageError(
            f"the dump files name different sites ({shown}): import each site's files separately"
        )
    from_path = next(iter(named.values()), None)
    if given:
        site = normalize_site(given)
        if from_path and from_path != site:
            path = next(iter(named))
            raise UsageError(
                f"--site {given} contradicts the dump's path {path} (site {from_path}): "
                f"drop --site, or rename the file if the path is wrong"
            )
        return site
    if from_path:
        return from_path
    what = "standard input" if any(p == "-" for p in paths) else (paths[0] or "the dump")
    raise UsageError(
        f"cannot tell which site {what} comes from (its path names none): "
        "pass --site (e.g. --site stackoverflow or --site ai)"
    )
