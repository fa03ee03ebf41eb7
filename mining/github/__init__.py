"""GitHub issues as a second source: a REST client (:mod:`.client`), issue and comment objects to rows
(:mod:`.items`, Markdown through :mod:`.markdown`) and the resumable scrape (:mod:`.scrape`). The study's
``[github]`` table is read by :mod:`mining.github_config`."""
