"""Acquisition from the live Stack Exchange API: the HTTP client, API items to rows, the resumable scrape job."""
