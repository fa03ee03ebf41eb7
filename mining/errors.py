"""The one exception type commands turn into a one-line message and a non-zero exit."""


class PPMinerError(Exception):
    """A failure the user can act on; the message names what failed and where (file:line, URL, post id)."""
