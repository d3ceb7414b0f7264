"""``cwenv serve``: the NSC brain as a local HTTP service (docs/service.md)."""
