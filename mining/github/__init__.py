"""GitHub issues as a second source: a REST client (:mod:`.client`), issue and comment objects to rows
(:mod:`.items`, Markdown through :mod:`.markdown`), the resumable scrape (:mod:`.scrape`) and the GitHub study's
repositories and filters (:mod:`.study`)."""
