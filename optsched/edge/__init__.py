"""Family ``edge`` (registration follows once the family is complete)."""
