"""The one exception type commands turn into a one-line message and a non-zero exit."""


class PPMinerError(Exception):
    """A failure the user can act on; the message names what failed and where (file:line, URL, post id)."""

    exit_code = 1


class UsageError(PPMinerError):
    """A flag that is missing, wrong or contradicts the input, said in one line; exit status 2 like other usage
    errors."""

    exit_code = 2
